#!/usr/bin/env bash
# Checks that the deployment files still fit the code, without Docker: nginx accepts the configs,
# deploy/compose.yaml has its services and sets only settings Ferry knows, and so does
# deploy/ferry.env.example. Prints one line per check; exits 1 if any fails.
#
# A setting Ferry knows: FERRY_ + a field of `struct Config` in src/config.rs (how figment maps
# the environment), FERRY_CONFIG, or FERRY_{NAME}_{URL,KEY,…} for an upstream NAME that the same
# file lists in FERRY_PROVIDERS (the suffixes are those config.rs's upstreams() reads). A setting
# config.rs refuses (`figment.contains(...)`) fails.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }
skip() { echo "skip $*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- nginx -t ------------------------------------------------------------------------------------
# 1. ferry.conf with an upstream of our own, as a test or a host install would supply it.
# 2. The compose main file with its upstream file, the replicas' names replaced by 127.0.0.1
#    (they resolve only inside the compose network) and without `user nginx` (no such user here).
nginx_test() { # name, main config
  local out
  if out=$(nginx -t -p "$tmp/" -c "$2" 2>&1); then
    pass "nginx -t: $1"
  else
    fail "nginx -t: $1: $(grep -v 'test failed' <<<"$out" | sed -E 's/^[0-9/]+ [0-9:]+ \[[a-z]+\] [0-9#]+: //' | head -n 2 | tr '\n' ' ')"
  fi
}
if command -v nginx >/dev/null; then
  mkdir -p "$tmp/compose"
  cat >"$tmp/test.conf" <<EOF
error_log stderr;
pid $tmp/nginx.pid;
events {}
http {
    upstream ferry { server 127.0.0.1:1; keepalive 4; keepalive_timeout 10s; }
    include $PWD/deploy/nginx/ferry.conf;
}
EOF
  nginx_test "deploy/nginx/ferry.conf with a test upstream" "$tmp/test.conf"

  grep -v '^user ' deploy/nginx/nginx.conf >"$tmp/compose/nginx.conf"
  cp deploy/nginx/ferry.conf "$tmp/compose/"
  sed -E 's/server ferry-[0-9]+:/server 127.0.0.1:/' deploy/nginx/upstream-compose.conf \
    >"$tmp/compose/upstream-compose.conf"
  nginx_test "deploy/nginx/nginx.conf with upstream-compose.conf" "$tmp/compose/nginx.conf"
else
  fail "nginx -t: nginx is not installed (apt-get install nginx-light)"
fi

# --- the settings Ferry knows ----------------------------------------------------------------------
settings_read=1
python3 - "$tmp/known" "$tmp/refused" 2>/dev/null <<'EOF' || settings_read=0
import re, sys
source = open("src/config.rs").read()
struct = re.search(r"^pub struct Config \{\n(.*?)^\}", source, re.S | re.M).group(1)
known, skip_next = {"FERRY_CONFIG"}, False
for line in struct.splitlines():
    line = line.strip()
    if line.startswith("#[serde(skip"):
        skip_next = True
    elif m := re.match(r"pub (\w+):", line):
        if not skip_next:
            known.add("FERRY_" + m.group(1).upper())
        skip_next = False
suffixes = sorted({s.upper() for s in re.findall(r'setting\("(\w+)"\)', source)})
refused = {"FERRY_" + n.upper() for n in re.findall(r'figment\.contains\("(\w+)"\)', source)}
open(sys.argv[1], "w").write("\n".join(sorted(known)) + "\n" + "UPSTREAM_SUFFIXES " + " ".join(suffixes) + "\n")
open(sys.argv[2], "w").write("\n".join(sorted(refused)) + "\n")
EOF

# Prints why NAME is not a setting Ferry knows, or nothing. PROVIDERS: upstream names, upper case.
unknown_setting() { # name, providers
  local name=$1 providers=$2 provider suffix
  grep -qx "$name" "$tmp/refused" && { echo "$name (refused at start-up)"; return; }
  grep -qx "$name" "$tmp/known" && return
  for provider in $providers; do
    for suffix in $(grep '^UPSTREAM_SUFFIXES' "$tmp/known" | cut -d' ' -f2-); do
      [ "$name" = "FERRY_${provider}_${suffix}" ] && return
    done
  done
  echo "$name"
}

check_names() { # what, providers, names...
  local what=$1 providers=$2 name why bad=()
  shift 2
  if [ "$settings_read" = 0 ]; then
    fail "$what: cannot check its settings: no \`pub struct Config {\` in src/config.rs"
    return
  fi
  for name in "$@"; do
    why=$(unknown_setting "$name" "$providers")
    [ -n "$why" ] && bad+=("$why")
  done
  if [ ${#bad[@]} -eq 0 ]; then
    pass "$what: all $# FERRY_* settings are in src/config.rs"
  else
    fail "$what: not settings of src/config.rs: ${bad[*]}"
  fi
}

# --- deploy/compose.yaml ---------------------------------------------------------------------------
if python3 -c 'import yaml' 2>/dev/null; then
  if ! compose_out=$(python3 - 2>&1 <<'EOF'
import yaml
compose = yaml.safe_load(open("deploy/compose.yaml"))
services = compose.get("services", {})
missing = [s for s in ("postgres", "redis", "ferry-1", "ferry-2", "nginx") if s not in services]
print("MISSING " + " ".join(missing))
names = set()
for service in services.values():
    env = service.get("environment") or {}
    keys = env.keys() if isinstance(env, dict) else [e.split("=", 1)[0] for e in env]
    names.update(k for k in keys if k.startswith("FERRY_"))
print("NAMES " + " ".join(sorted(names)))
providers = {p.strip().upper() for s in services.values() if isinstance(s.get("environment"), dict)
             for p in str(s["environment"].get("FERRY_PROVIDERS", "")).split(",") if p.strip()}
print("PROVIDERS " + " ".join(sorted(providers)))
# FERRY_TRUSTED_PROXIES must name nginx's fixed address, and both replicas must agree.
nginx_ip = (services.get("nginx", {}).get("networks") or {}).get("ferry", {}).get("ipv4_address")
envs = [services.get(r, {}).get("environment") or {} for r in ("ferry-1", "ferry-2")]
trusted = str(envs[0].get("FERRY_TRUSTED_PROXIES", "")).split(",")
print("PROXY " + ("ok" if nginx_ip and nginx_ip in trusted and envs[0] == envs[1]
                  else f"nginx at {nginx_ip}, FERRY_TRUSTED_PROXIES {trusted}, replicas alike: {envs[0] == envs[1]}"))
EOF
  ); then
    fail "deploy/compose.yaml: cannot be read: $(tail -n 1 <<<"$compose_out")"
  else
  missing=$(sed -n 's/^MISSING *//p' <<<"$compose_out")
  if [ -z "$missing" ]; then
    pass "deploy/compose.yaml: services postgres, redis, ferry-1, ferry-2, nginx"
  else
    fail "deploy/compose.yaml: missing services: $missing"
  fi
  proxy=$(sed -n 's/^PROXY //p' <<<"$compose_out")
  if [ "$proxy" = ok ]; then
    pass "deploy/compose.yaml: the replicas trust nginx's address and share one environment"
  else
    fail "deploy/compose.yaml: $proxy"
  fi
  # shellcheck disable=SC2046
  check_names "deploy/compose.yaml" "$(sed -n 's/^PROVIDERS //p' <<<"$compose_out")" \
    $(sed -n 's/^NAMES //p' <<<"$compose_out")
  fi
else
  skip "deploy/compose.yaml: PyYAML is not installed (pip install pyyaml)"
fi

# The upstream file lists the compose replicas.
if grep -q 'server ferry-1:8080;' deploy/nginx/upstream-compose.conf &&
  grep -q 'server ferry-2:8080;' deploy/nginx/upstream-compose.conf; then
  pass "deploy/nginx/upstream-compose.conf: lists ferry-1:8080 and ferry-2:8080"
else
  fail "deploy/nginx/upstream-compose.conf: does not list ferry-1:8080 and ferry-2:8080"
fi

# --- deploy/ferry.env.example: every FERRY_* name, set or commented out ----------------------------
# Upstream names: every FERRY_PROVIDERS= line, commented out or not.
env_providers=$(sed -nE 's/^#? *FERRY_PROVIDERS=//p' deploy/ferry.env.example | tr ',a-z' ' A-Z')
# shellcheck disable=SC2046
check_names "deploy/ferry.env.example" "$env_providers" \
  $(grep -oE 'FERRY_[A-Z0-9_]+' deploy/ferry.env.example | sort -u)

exit "$failed"
