#!/usr/bin/env bash
# `make dev`: the Rust server (debug build, API on :8080) and Vite with hot reload on :5173,
# which proxies /api to it. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'kill 0' EXIT INT TERM
cargo run -- serve &
(cd web && npm run dev -- --host 127.0.0.1) &
wait
