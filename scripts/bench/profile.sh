#!/usr/bin/env bash
# `make profile`: where a warm quote's time goes. Builds the release binary with symbols
# (the `profiling` profile), serves warm quotes to wrk at 64 connections, records 6 s with perf
# (DWARF call graphs) and folds them into docs/flamegraph-quote.svg with inferno.
# Needs perf (Debian's linux-perf) and wrk; installs inferno into target/tools if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf; }
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
TOOLS=target/tools
if [ ! -x "$TOOLS/bin/inferno-flamegraph" ]; then
  cargo install inferno --version 0.12.8 --locked --root "$TOOLS" --quiet
fi
cargo build --profile profiling --locked --quiet

DATA=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
FERRY_LISTEN="127.0.0.1:$PORT" FERRY_DATA_DIR="$DATA" FERRY_LOG=warn FERRY_LOG_FORMAT=json \
  FERRY_QUOTE_RATE_PER_MINUTE=100000000 FERRY_CONNECTIONS_PER_CLIENT=100000 \
  ./target/profiling/ferry serve >"$DATA/ferry.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done

BODY='{"from_currency":"BTC","to_currency":"ETH","amount":"0.1","direction":"from","type":"float"}'
curl -fs "http://127.0.0.1:$PORT/api/exchange-rate" -H 'content-type: application/json' -d "$BODY" >/dev/null
cat >"$DATA/quote.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$BODY'
EOF
wrk -t2 -c64 -d12s -s "$DATA/quote.lua" "http://127.0.0.1:$PORT/api/exchange-rate" >"$DATA/wrk.txt" &
LOAD=$!
sleep 2
perf record -F 499 --call-graph dwarf,16384 -p "$SERVER" -o "$DATA/perf.data" -- sleep 6 2>/dev/null
wait $LOAD
grep 'Requests/sec' "$DATA/wrk.txt"
# The folded stacks stay beside the build, for reading the profile as text.
perf script -i "$DATA/perf.data" 2>/dev/null | "$TOOLS/bin/inferno-collapse-perf" >target/profile-quote.folded
"$TOOLS/bin/inferno-flamegraph" --minwidth 2 --title "Ferry: warm POST /api/exchange-rate, wrk -c64 on the same 2 cores" \
  <target/profile-quote.folded >docs/flamegraph-quote.svg
echo "wrote docs/flamegraph-quote.svg"
