# syntax=docker/dockerfile:1
# Ferry's image: the release binary alone, with the React app embedded in it.
#
#   docker build -t ferry .
#   docker run -p 8080:8080 -v ferry-data:/var/lib/ferry ferry     # SQLite in the volume
#
# deploy/compose.yaml runs two replicas of it on PostgreSQL behind nginx.

# --- 1. The web app: web/dist (what `make web` builds) ----------------------------------------
FROM node:22-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
# The lock file lists every platform's optional native packages (Tailwind's oxide, lightningcss,
# rolldown), so `npm ci` finds this one's.
RUN npm ci --no-audit --no-fund
COPY web/ ./
# The app and its prerendered pages read the catalogue the server shares (../catalogue).
COPY catalogue/ ../catalogue/
# Vite build, SSR prerender, brotli/gzip precompression and the size budget. Prerendered pages
# use web/prerender-config.json (the server's default public settings): see the README's
# "Prerendered pages" to build them for yours.
RUN npm run build

# --- 2. The binary -----------------------------------------------------------------------------
# Cargo.toml asks for Rust 1.95 or later: if a cached rust:1 image is older, build with --pull.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
COPY --from=web /src/web/dist web/dist/
# src/http/spa.rs embeds web/dist with rust-embed's `allow_missing`: without the app the build
# still succeeds, and the binary answers every page with 503. Make that a build failure here.
RUN test -f web/dist/index.html
# The cache mounts keep crates and compiled dependencies between builds; the binary is copied
# out in the same step because the target cache is not part of the image. spa.rs is touched so
# that the app is embedded afresh whatever the cached build last saw of web/dist.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    touch src/http/spa.rs \
    && cargo build --release --locked \
    && install -m 0755 target/release/ferry /usr/local/bin/ferry

# --- 3. Runtime --------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --gid 10001 ferry \
    && useradd --uid 10001 --gid ferry --home-dir /var/lib/ferry --no-create-home \
       --shell /usr/sbin/nologin ferry \
    && install -d -o ferry -g ferry -m 0700 /var/lib/ferry
COPY --from=build /usr/local/bin/ferry /usr/local/bin/ferry

# The data directory holds the SQLite database, DATA_DIR/key-secret (when FERRY_KEY_SECRET is
# unset) and the mail outbox (when FERRY_SMTP_URL is unset): mount a volume on it for SQLite.
# A new named volume takes this directory's owner, so ferry can write to it.
WORKDIR /var/lib/ferry
ENV FERRY_LISTEN=0.0.0.0:8080 \
    FERRY_DATA_DIR=/var/lib/ferry
EXPOSE 8080

# No HEALTHCHECK: the image has no curl or wget. Probe GET /healthz (process up) or GET /readyz
# (database answers) from the orchestrator; deploy/compose.yaml does it with bash's /dev/tcp.
# On SIGTERM ferry lets requests finish for FERRY_SHUTDOWN_GRACE_SECONDS (20): give `docker stop`
# more than its default 10 s (`--stop-timeout 30`, compose's stop_grace_period).

USER ferry
ENTRYPOINT ["/usr/local/bin/ferry"]
CMD ["serve"]
