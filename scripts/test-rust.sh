#!/usr/bin/env bash
# Runs the Rust tests: unit, integration, and the store suite on SQLite and on PostgreSQL.
# PostgreSQL comes from FERRY_TEST_DATABASE_URL and Redis (shared limits) from
# FERRY_TEST_REDIS_URL (default: the local servers). With CI=true an unreachable one fails the
# run; elsewhere its tests are skipped with a warning.
set -euo pipefail
export FERRY_TEST_DATABASE_URL="${FERRY_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"

if ! pg_isready -q -d "$FERRY_TEST_DATABASE_URL" 2>/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: PostgreSQL at $FERRY_TEST_DATABASE_URL is unreachable and CI=true" >&2
    exit 1
  fi
  echo "warning: PostgreSQL at $FERRY_TEST_DATABASE_URL is unreachable: its tests are SKIPPED" >&2
  unset FERRY_TEST_DATABASE_URL
fi

export FERRY_TEST_REDIS_URL="${FERRY_TEST_REDIS_URL:-redis://127.0.0.1:6379}"
redis_host_port="${FERRY_TEST_REDIS_URL#redis://}"
redis_host_port="${redis_host_port%%/*}"
if ! (exec 3<>"/dev/tcp/${redis_host_port%:*}/${redis_host_port##*:}") 2>/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: Redis at $FERRY_TEST_REDIS_URL is unreachable and CI=true" >&2
    exit 1
  fi
  echo "warning: Redis at $FERRY_TEST_REDIS_URL is unreachable: its tests are SKIPPED" >&2
  unset FERRY_TEST_REDIS_URL
fi

if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --no-fail-fast "$@"
  cargo test --doc --quiet
else
  cargo test --no-fail-fast "$@"
fi
