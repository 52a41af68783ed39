# Ferry: the two commands of the README are `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
WEB_DEPS := web/node_modules/.package-lock.json
E2E_DEPS := e2e/node_modules/.package-lock.json

.PHONY: help run build web dev test lint fmt-check clippy soak-memory nginx-setup check-deploy cluster-test cluster-test-short test-rust test-web e2e e2e-setup fuzz-api soak audit bench profile clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# `npm install` rather than `npm ci`: with this machine's npm settings the lock file leaves out
# other platforms' optional packages (Tailwind's oxide binaries), which `npm ci` rejects. Every
# dependency is pinned exactly in package.json and the lock file pins the rest.
$(WEB_DEPS): web/package-lock.json
	cd web && $(NPM) install --no-audit --no-fund
	@touch $@

$(E2E_DEPS): e2e/package-lock.json
	cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(NPM) install --no-audit --no-fund
	@touch $@

web: $(WEB_DEPS) ## build the React app into web/dist (precompressed, budget-checked)
	cd web && $(NPM) run build

build: web ## build the app and the release binary target/release/ferry
	$(CARGO) build --release --locked

run: build ## build everything and serve http://127.0.0.1:8080 (SQLite + sandbox)
	./target/release/ferry serve

dev: $(WEB_DEPS) ## API server (debug) + Vite dev server with hot reload on :5173
	./scripts/dev.sh

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --all-targets --locked -- -D warnings

test-rust: ## Rust unit and integration tests, store tests on SQLite and PostgreSQL
	./scripts/test-rust.sh

test-web: $(WEB_DEPS) ## ESLint, tsc, Prettier and Vitest
	cd web && $(NPM) run check

e2e-setup: $(E2E_DEPS)
	./scripts/ensure-chromium.sh

e2e: e2e-setup build ## Playwright in Chromium against the release binary
	cd e2e && $(NPM) test

fuzz-api: build ## Schemathesis over every operation of /api/openapi.json (no 5xx, answers as documented)
	./scripts/api-fuzz.sh

audit: build e2e-setup ## Lighthouse (mobile) on /, /markets, /help and a pair page; prints the four scores
	cd scripts/audit && $(NPM) install --no-audit --no-fund && node audit.mjs

# The short versions run in every `make test` (3 s of load, one kill -9 round).
soak: ## load and faults, longer: 200 quoting clients for 60 s, five kill -9 rounds, a hanging provider, an SMTP outage
	FERRY_SOAK_SECONDS=$${FERRY_SOAK_SECONDS:-60} FERRY_SOAK_ROUNDS=$${FERRY_SOAK_ROUNDS:-5} \
	FERRY_TEST_DATABASE_URL=$${FERRY_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} \
	  cargo test --release --test api -- --nocapture two_hundred_concurrent kill_9 hanging_provider smtp_outage

soak-memory: build ## memory under mixed use: 30 min of load, 5 idle (SOAK_MINUTES, SOAK_IDLE_MINUTES, SOAK_DATABASE_URL for PostgreSQL); RSS <= 150 MB, flat while idle
	python3 scripts/bench/memory_soak.py

nginx-setup: # Debian's nginx and PyYAML, for the deploy check and the cluster test
	@command -v nginx >/dev/null && python3 -c 'import yaml' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq nginx-light python3-yaml; }

check-deploy: nginx-setup ## nginx -t on deploy/nginx; the compose and env files name only settings Ferry has
	./scripts/check-deploy.sh

# The short form (5 s of load) runs in every `make test`.
cluster-test: nginx-setup build ## 3 replicas on PostgreSQL + Redis behind nginx, 60 s of load and a kill -9
	CLUSTER_SECONDS=$${CLUSTER_SECONDS:-60} python3 scripts/cluster/cluster_test.py

cluster-test-short: nginx-setup build
	CLUSTER_SECONDS=5 python3 scripts/cluster/cluster_test.py

lint: fmt-check clippy test-web

test: fmt-check clippy check-deploy test-rust test-web e2e fuzz-api cluster-test-short ## everything CI runs
	@echo "make test: all suites passed"

profile: ## perf flame graph of warm quotes (release build with symbols) into docs/flamegraph-quote.svg
	./scripts/bench/profile.sh

bench: build ## measure throughput, latency, RSS and start-up; writes docs/benchmarks.md
	@command -v wrk >/dev/null && command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk nginx; }
	$(CARGO) build --release --locked --example http_ceiling
	python3 scripts/bench/bench.py

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules e2e/node_modules
