#!/usr/bin/env bash
# API contract fuzzing: Schemathesis (from PyPI, in .venv) against the release binary, over
# every operation of /api/openapi.json, signed in so the account calls are exercised too
# (sign-out and account deletion are left out: they would end the session for the rest), and
# with a real API key whose secret signs every partner-API request (scripts/fuzz/), so the
# partner methods are fuzzed past the signature check.
# Fails on any 5xx, any answer that breaks the documented schema, status or content type.
# Before the fuzzing, a third-party FixedFloat v2 client from PyPI (FixedFloatApi 1.0.3, changed
# only in its base URL) walks an order to its payout and another to its refund
# (scripts/clients/fixedfloatapi_check.py).
# FERRY_FUZZ_EXAMPLES sets the example budget per operation (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv
PYTHON_PACKAGES=("schemathesis==4.32.5" "FixedFloatApi==1.0.3")
if ! "$VENV/bin/pip" show -q schemathesis FixedFloatApi >/dev/null 2>&1; then
  [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV" 2>/dev/null ||
    { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$VENV"; }
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PYTHON_PACKAGES[@]}"
fi

DATA=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
BASE="http://127.0.0.1:$PORT"
FERRY_LISTEN="127.0.0.1:$PORT" FERRY_DATA_DIR="$DATA" FERRY_LOG_FORMAT=json \
  FERRY_PARTNER_RATE_PER_MINUTE=1000000 FERRY_ORDER_RATE_PER_MINUTE=1000000 \
  FERRY_REGISTER_RATE_PER_HOUR=1000000 FERRY_ADMIN_TOKEN=fuzz-admin-token \
  FERRY_SANDBOX_STEP_SECONDS=1 FERRY_WORKER_INTERVAL_MS=200 \
  ./target/release/ferry serve >"$DATA/ferry.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do
  curl -fs "$BASE/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done

TOKEN=$(curl -fs "$BASE/api/register" -H 'content-type: application/json' \
  -d '{"email":"fuzz@example.com","password":"Fuzz1password","confirm_password":"Fuzz1password"}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')

# Verify the e-mail with the link from the outbox (keys need it), then make a trade key.
VERIFY=""
for _ in $(seq 50); do
  VERIFY=$(cat "$DATA"/outbox/*.eml 2>/dev/null | python3 -c '
import quopri, re, sys
text = quopri.decodestring(sys.stdin.buffer.read()).decode("utf-8", "replace")
found = re.findall(r"verify-email\?token=([A-Za-z0-9_-]+)", text)
print(found[-1] if found else "")') || true
  [ -n "$VERIFY" ] && break
  sleep 0.1
done
curl -fs "$BASE/api/email/verification/verify" -H 'content-type: application/json' \
  -d "{\"token\":\"$VERIFY\"}" >/dev/null
new_key() {
  curl -fs "$BASE/api/api-keys" -H "Authorization: Bearer $TOKEN" \
    -H 'content-type: application/json' -d "{\"name\":\"$1\",\"permission\":\"trade\"}"
}
key_field() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

CLIENT_KEY_JSON=$(new_key client)
FERRY_BASE_URL="$BASE" FERRY_ADMIN_TOKEN=fuzz-admin-token \
  FERRY_CLIENT_API_KEY=$(printf '%s' "$CLIENT_KEY_JSON" | key_field 'd["key"]["id"]') \
  FERRY_CLIENT_API_SECRET=$(printf '%s' "$CLIENT_KEY_JSON" | key_field 'd["secret"]') \
  "$VENV/bin/python" scripts/clients/fixedfloatapi_check.py

KEY_JSON=$(new_key fuzz)
export FERRY_FUZZ_API_KEY FERRY_FUZZ_API_SECRET
FERRY_FUZZ_API_KEY=$(printf '%s' "$KEY_JSON" | key_field 'd["key"]["id"]')
FERRY_FUZZ_API_SECRET=$(printf '%s' "$KEY_JSON" | key_field 'd["secret"]')

PYTHONPATH=scripts/fuzz SCHEMATHESIS_HOOKS=partner_signing \
"$VENV/bin/st" run "$BASE/api/openapi.json" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
  --max-examples "${FERRY_FUZZ_EXAMPLES:-30}" \
  --seed 20261122 \
  --request-timeout 10 \
  -H "Authorization: Bearer $TOKEN" \
  --exclude-path /api/logout \
  --exclude-path /api/account/delete \
  --exclude-path '/api/api-keys/{id}'

if grep -q '"level":"ERROR"' "$DATA/ferry.log"; then
  echo "the server logged errors during the fuzzing run:" >&2
  grep '"level":"ERROR"' "$DATA/ferry.log" | head -5 >&2
  exit 1
fi

# The signed partner calls got through: the key counted successful requests.
USED=$(curl -fs "$BASE/api/api-keys" -H "Authorization: Bearer $TOKEN" | python3 -c '
import json, os, sys
keys = json.load(sys.stdin)["keys"]
print(next((k["request_count"] for k in keys if k["id"] == os.environ["FERRY_FUZZ_API_KEY"]), 0))')
echo "signed partner-API calls answered with code 0: $USED"
if [ "$USED" -lt 10 ]; then
  echo "the partner API was not fuzzed past its signature check" >&2
  exit 1
fi
