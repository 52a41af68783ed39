#!/usr/bin/env python3
"""`make bench`: drives the release binary with wrk and writes docs/benchmarks.md.

For each backend (SQLite; PostgreSQL too when FERRY_BENCH_DATABASE_URL is set) it starts
target/release/ferry on a free port with a fresh database, measures the time to ready and the
idle RSS, runs wrk at 64 connections against each endpoint, and reads the peak RSS.

Then, against nginx (Debian's package, 2 workers) serving the very bytes Ferry answered with
(the warm quote, the currency list and the gzipped home page), it runs alternating rounds of
the same wrk load on both and prints Ferry's throughput as a ratio of nginx's (issue 20).
"""
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, "target/release/ferry")
DURATION = os.environ.get("BENCH_DURATION", "10s")
CONNECTIONS = 64
THREADS = 2
ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
TARGETS = {
    "GET /api/available-currencies": (">= 20,000 req/s, p99 < 10 ms"),
    "POST /api/exchange-rate (warm)": (">= 20,000 req/s, p99 < 10 ms"),
    "POST /api/create-order": (">= 2,000/s SQLite, >= 1,000/s PostgreSQL"),
    "GET /api/order-details/{id}": ("-"),
    "GET / (embedded app, gzip)": ("-"),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def lua_post(path, body):
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write(
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = {json.dumps(json.dumps(body))}\n"
    )
    script.close()
    return script.name


def run_wrk(url, script=None, headers=()):
    args = ["wrk", "-t", str(THREADS), "-c", str(CONNECTIONS), "-d", DURATION, "--latency"]
    if script:
        args += ["-s", script]
    for header in headers:
        args += ["-H", header]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)

    def ms(m):
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    return {"rps": rps, "p50": ms(p50), "p99": ms(p99), "errors": int(non2xx.group(1)) if non2xx else 0}


def bench(label, database_url=None):
    port = free_port()
    data = tempfile.mkdtemp(prefix="ferry-bench-")
    env = dict(os.environ)
    env.update(
        FERRY_LISTEN=f"127.0.0.1:{port}",
        FERRY_DATA_DIR=data,
        FERRY_LOG="warn",
        FERRY_LOG_FORMAT="json",
        # The per-client quote limit would answer 429 to a load generator on one address.
        FERRY_QUOTE_RATE_PER_MINUTE="100000000",
        FERRY_ORDER_RATE_PER_MINUTE="100000000",
        # wrk's connections all come from one address.
        FERRY_CONNECTIONS_PER_CLIENT="100000",
    )
    if database_url:
        env["FERRY_DATABASE_URL"] = database_url
        env["FERRY_KEY_SECRET"] = "bench-key-secret-shared-by-replicas"
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    server = subprocess.Popen([BINARY, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(base + "/readyz", timeout=1)
                break
            except OSError:
                if time.monotonic() - started > 30:
                    raise SystemExit("the server did not get ready in 30 s")
                time.sleep(0.01)
        ready_ms = (time.monotonic() - started) * 1000
        time.sleep(1)
        idle_rss = rss_kb(server.pid, "VmRSS")

        quote = {"from_currency": "BTC", "to_currency": "ETH", "amount": "0.1", "direction": "from", "type": "float"}
        order_body = {"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": ETH, "type": "float", "direction": "from"}
        order = post(base + "/api/create-order", order_body)["data"]
        post(base + "/api/exchange-rate", quote)  # warm

        results = {
            "GET /api/available-currencies": run_wrk(base + "/api/available-currencies"),
            "POST /api/exchange-rate (warm)": run_wrk(base + "/api/exchange-rate", lua_post("/api/exchange-rate", quote)),
            "POST /api/create-order": run_wrk(base + "/api/create-order", lua_post("/api/create-order", order_body)),
            "GET /api/order-details/{id}": run_wrk(f"{base}/api/order-details/{order['id']}?token={order['token']}"),
            # As a browser asks for it: the prerendered home page, compressed.
            "GET / (embedded app, gzip)": run_wrk(base + "/", headers=["Accept-Encoding: gzip, deflate, br"]),
        }
        peak_rss = rss_kb(server.pid, "VmHWM")
        versus = against_nginx(base, quote) if label == "SQLite" else None
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)
    return {"label": label, "ready_ms": ready_ms, "idle_rss_mb": idle_rss / 1024, "peak_rss_mb": peak_rss / 1024, "results": results, "versus": versus}


ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
RATIO_TARGETS = {
    "POST /api/exchange-rate (warm)": 0.7,
    "GET /api/available-currencies": 0.8,
    "GET / (gzip)": 0.8,
}
NGINX_CONF = """
worker_processes 2;
pid {dir}/nginx.pid;
error_log {dir}/error.log crit;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{port};
        location = /api/exchange-rate {{
            default_type application/json;
            return 200 '{quote}';
        }}
        location = /api/available-currencies {{
            default_type application/json;
            alias {dir}/currencies.json;
        }}
        location = / {{
            default_type text/html;
            add_header Content-Encoding gzip;
            add_header Vary Accept-Encoding;
            alias {dir}/index.html.gz;
        }}
    }}
}}
"""


def fetch(url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, {"content-type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request) as response:
        return response.read()


CEILING = os.path.join(ROOT, "target/release/examples/http_ceiling")


def against_nginx(base, quote):
    """Alternating rounds of the same load on Ferry and on nginx serving Ferry's own bytes, and
    for the quote on hyper alone (examples/http_ceiling.rs: no routing, headers or work), the
    ceiling of any server built on Ferry's HTTP library and runtime."""
    if not shutil.which("nginx"):
        raise SystemExit("nginx is missing: apt-get install nginx")
    work = tempfile.mkdtemp(prefix="ferry-nginx-")
    port = free_port()
    quote_body = fetch(base + "/api/exchange-rate", quote).decode()
    with open(os.path.join(work, "currencies.json"), "wb") as f:
        f.write(fetch(base + "/api/available-currencies"))
    with open(os.path.join(work, "index.html.gz"), "wb") as f:
        f.write(fetch(base + "/", headers={"accept-encoding": "gzip"}))
    with open(os.path.join(work, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF.format(dir=work, port=port, quote=quote_body.replace("'", "\\'")))
    nginx = subprocess.Popen(["nginx", "-c", os.path.join(work, "nginx.conf"), "-g", "daemon off;"])
    other = f"http://127.0.0.1:{port}"
    ceiling_port = free_port()
    ceiling = subprocess.Popen([CEILING, "mt", str(ceiling_port)]) if os.path.exists(CEILING) else None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(other + "/api/available-currencies", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        script = lua_post("/api/exchange-rate", quote)
        cases = {
            "POST /api/exchange-rate (warm)": ("/api/exchange-rate", script, ()),
            "GET /api/available-currencies": ("/api/available-currencies", None, ()),
            "GET / (gzip)": ("/", None, ["Accept-Encoding: gzip, deflate, br"]),
        }
        rows = {}
        for name, (path, lua, headers) in cases.items():
            ferry_runs, nginx_runs, ceiling_runs = [], [], []
            for _ in range(ROUNDS):
                ferry_runs.append(run_wrk(base + path, lua, headers))
                nginx_runs.append(run_wrk(other + path, lua, headers))
                if ceiling and path == "/api/exchange-rate":
                    ceiling_runs.append(run_wrk(f"http://127.0.0.1:{ceiling_port}{path}", lua, headers))
            median = lambda runs: sorted(runs, key=lambda r: r["rps"])[len(runs) // 2] if runs else None
            rows[name] = {"ferry": median(ferry_runs), "nginx": median(nginx_runs), "hyper": median(ceiling_runs)}
        return rows
    finally:
        if ceiling:
            ceiling.terminate()
            ceiling.wait(timeout=10)
        nginx.terminate()
        nginx.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def postgres_database(admin_url):
    """A fresh database on the server at admin_url; returns its URL."""
    name = f"ferry_bench_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", admin_url, "-qc", f"CREATE DATABASE {name}"], check=True)
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}", name


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    with open("/proc/meminfo") as f:
        mem_gb = int(f.readline().split()[1]) / 1024 / 1024
    return f"{os.cpu_count()} cores ({cpu}), {mem_gb:.0f} GB RAM, {platform.system()} {platform.release()}; wrk on the same machine"


def report(runs):
    lines = [
        "# Benchmarks",
        "",
        "Made by `make bench` (`scripts/bench/bench.py`): the release binary on the sandbox provider,",
        f"driven by wrk with {THREADS} threads and {CONNECTIONS} connections for {DURATION} per endpoint,",
        "the load generator on the same machine. The per-client quote limit is raised for the run.",
        "",
        f"Machine: {machine()}.",
        f"Run: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
    ]
    for run in runs:
        lines += [
            f"## {run['label']}",
            "",
            f"Ready in {run['ready_ms']:.0f} ms (target < 1 s); idle RSS {run['idle_rss_mb']:.1f} MB (target <= 40 MB); peak RSS {run['peak_rss_mb']:.1f} MB.",
            "",
            "| Endpoint | req/s | p50 ms | p99 ms | non-2xx | Target |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for name, r in run["results"].items():
            lines.append(f"| {name} | {r['rps']:,.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['errors']} | {TARGETS[name]} |")
        lines.append("")
        if run.get("versus"):
            lines += versus_table(run["versus"])
    return "\n".join(lines)


def versus_table(rows):
    lines = [
        f"### Against nginx serving the same bytes ({ROUNDS} alternating rounds, medians)",
        "",
        "nginx 1.22 (Debian), 2 workers, access log off, the same wrk load; the body of each",
        "answer is the one Ferry gave. Ratio = Ferry's req/s ÷ nginx's. \"hyper alone\" is",
        "`examples/http_ceiling.rs`, a fixed answer of the quote's size with no routing or work:",
        "what any server on Ferry's HTTP library and runtime could reach on this machine.",
        "",
        "| Endpoint | Ferry req/s | Ferry p99 ms | nginx req/s | nginx p99 ms | hyper alone req/s | Ratio | Target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in rows.items():
        ratio = r["ferry"]["rps"] / r["nginx"]["rps"]
        target = RATIO_TARGETS[name]
        verdict = "met" if ratio >= target else f"missed by {target - ratio:.2f}"
        hyper = f"{r['hyper']['rps']:,.0f}" if r.get("hyper") else "-"
        lines.append(
            f"| {name} | {r['ferry']['rps']:,.0f} | {r['ferry']['p99']:.2f} | {r['nginx']['rps']:,.0f} "
            f"| {r['nginx']['p99']:.2f} | {hyper} | {ratio:.2f} | >= {target} ({verdict}) |"
        )
    lines.append("")
    return lines


def kept_sections(previous):
    """What the file says after the figures this script writes (the Lighthouse section that
    `make audit` measures), kept as it was."""
    start = previous.find("\n## Lighthouse")
    return previous[start + 1:] if start >= 0 else ""


def main():
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: apt-get install wrk")
    if not os.path.exists(BINARY):
        raise SystemExit("build the release binary first: make build")
    import streams

    runs = [bench("SQLite")]
    watching = [streams.run("SQLite")]
    admin = os.environ.get("FERRY_BENCH_DATABASE_URL")
    if admin:
        for run_on, into in ((bench, runs), (streams.run, watching)):
            url, name = postgres_database(admin)
            try:
                into.append(run_on("PostgreSQL", url))
            finally:
                subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)
    text = report(runs) + "\n" + "\n".join(streams.report(watching))
    print(text)
    path = os.path.join(ROOT, "docs/benchmarks.md")
    previous = open(path).read() if os.path.exists(path) else ""
    with open(path, "w") as f:
        f.write(text + "\n" + kept_sections(previous))


if __name__ == "__main__":
    sys.exit(main())
