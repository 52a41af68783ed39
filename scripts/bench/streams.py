#!/usr/bin/env python3
"""10,000 customers watching their orders on one replica (issue 20, item 4), part of `make bench`.

Starts target/release/ferry (SQLite, or the PostgreSQL database given), creates STREAMS orders,
opens one event stream per order (as the order page does), then measures:
- the RSS with every stream open, and the CPU the idle server uses over IDLE_SECONDS;
- how long an event takes to arrive: MOVED orders get their deposit (CONFIRMING), each stream's
  arrival timed from the moment the deposit was sent;
- the peak RSS.
Targets: every event within 1 s, peak RSS <= 300 MB, idle CPU <= 5 % of one core.
"""
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import free_port, postgres_database, rss_kb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, "target/release/ferry")
STREAMS = int(os.environ.get("BENCH_STREAMS", "10000"))
MOVED = int(os.environ.get("BENCH_STREAMS_MOVED", "500"))
IDLE_SECONDS = 10
ADMIN = "bench-streams-admin"
ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def proc_field(pid, field):
    return rss_kb(pid, field) / 1024


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def http(port, method, path, body=None, headers=None):
    """One request on a new connection; (status, JSON)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    head = [f"{method} {path} HTTP/1.1", "Host: bench", "Connection: close", f"Content-Length: {len(data)}"]
    if body is not None:
        head.append("Content-Type: application/json")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    status = int(raw.split(b" ", 2)[1])
    payload = raw.split(b"\r\n\r\n", 1)[1]
    if b"transfer-encoding: chunked" in raw.split(b"\r\n\r\n", 1)[0].lower():
        payload = dechunk(payload)
    return status, json.loads(payload or b"null")


def dechunk(data):
    out = b""
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2:]
    return out


async def in_parallel(count, make, width=32):
    results = [None] * count
    queue = iter(range(count))

    async def worker():
        for i in queue:
            results[i] = await make(i)

    await asyncio.gather(*(worker() for _ in range(width)))
    return results


class Stream:
    """One order page's event stream: statuses in order, and when each arrived."""

    def __init__(self, order):
        self.order = order
        self.arrived = {}
        self.first = asyncio.Event()
        self.writer = None

    async def open(self, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer = writer
        writer.write(
            f"GET /api/orders/{self.order['id']}/events?token={self.order['token']} HTTP/1.1\r\n"
            "Host: bench\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        asyncio.get_running_loop().create_task(self.read(reader))

    async def read(self, reader):
        while True:
            line = await reader.readline()
            if not line:
                return
            text = line.decode(errors="replace")
            if "data: {" in text:
                status = json.loads(text[text.index("data: ") + 6:])["status"]
                self.arrived.setdefault(status, time.monotonic())
                self.first.set()


async def measure(port, pid):
    created = await in_parallel(
        STREAMS,
        lambda _: http(port, "POST", "/api/create-order",
                       {"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": ETH,
                        "type": "float", "direction": "from"}),
    )
    orders = [answer["data"] for status, answer in created if status == 200]
    if len(orders) < STREAMS:
        raise SystemExit(f"only {len(orders)} of {STREAMS} orders were created")
    streams = [Stream(order) for order in orders]
    opening = time.monotonic()
    await in_parallel(len(streams), lambda i: streams[i].open(port), width=64)
    await asyncio.wait_for(asyncio.gather(*(s.first.wait() for s in streams)), 120)
    opened_in = time.monotonic() - opening
    await asyncio.sleep(2)
    rss_open = proc_field(pid, "VmRSS")
    cpu_before = cpu_seconds(pid)
    await asyncio.sleep(IDLE_SECONDS)
    idle_cpu = (cpu_seconds(pid) - cpu_before) / IDLE_SECONDS * 100

    # Deposits on a spread of the orders: each stream must show CONFIRMING within a second of
    # the write that made it.
    moved = streams[:: max(1, len(streams) // MOVED)][:MOVED]
    written = {}

    async def deposit(i):
        stream = moved[i]
        # From before the request: the delay counts the write, its commit and the wake-up.
        written[i] = time.monotonic()
        status, _ = await http(port, "POST", "/api/admin/sandbox/deposit", {"order_id": stream.order["id"]},
                               {"Authorization": f"Bearer {ADMIN}"})
        return status

    statuses = await in_parallel(len(moved), deposit, width=16)
    await asyncio.sleep(2)
    delays = []
    missing = 0
    for i, stream in enumerate(moved):
        seen = stream.arrived.get("CONFIRMING")
        if seen is None:
            missing += 1
        else:
            delays.append(seen - written[i])
    for s in streams:
        s.writer.close()
    return {
        "streams": len(streams),
        "opened_in": opened_in,
        "rss_open": rss_open,
        "idle_cpu": idle_cpu,
        "moved": len(moved),
        "deposits_ok": statuses.count(200),
        "missing": missing,
        "p50": statistics.median(delays) * 1000 if delays else float("nan"),
        "p99": sorted(delays)[int(len(delays) * 0.99) - 1] * 1000 if delays else float("nan"),
        "max": max(delays) * 1000 if delays else float("nan"),
        "peak_rss": proc_field(pid, "VmHWM"),
    }


def run(label, database_url=None):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    data = tempfile.mkdtemp(prefix="ferry-streams-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FERRY_")}
    env.update(
        FERRY_LISTEN=f"127.0.0.1:{port}",
        FERRY_DATA_DIR=data,
        FERRY_LOG="warn",
        FERRY_ADMIN_TOKEN=ADMIN,
        FERRY_ORDER_RATE_PER_MINUTE="100000000",
        FERRY_STREAMS_PER_CLIENT=str(STREAMS * 2),
        FERRY_STREAMS_TOTAL=str(STREAMS * 2),
        FERRY_MAX_CONNECTIONS=str(STREAMS + 2000),
        FERRY_CONNECTIONS_PER_CLIENT=str(STREAMS + 2000),
        # The deposits are the only changes: the worker leaves the orders where they are.
        FERRY_SANDBOX_STEP_SECONDS="3600",
    )
    if database_url:
        env["FERRY_DATABASE_URL"] = database_url
        env["FERRY_KEY_SECRET"] = "bench-key-secret-shared-by-replicas"
    server = subprocess.Popen([BINARY, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1)
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("the server did not get ready in 30 s")
                time.sleep(0.05)
        result = asyncio.run(measure(port, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)
    result["label"] = label
    return result


def report(results):
    lines = [
        "## Watching customers: 10,000 event streams on one replica",
        "",
        f"`scripts/bench/streams.py`: {STREAMS:,} orders, one open event stream each (as the order page",
        "keeps one), from a load generator on the same machine; then deposits on a spread of the orders,",
        "each stream's CONFIRMING timed from the moment the deposit was sent. Targets: every event within 1 s,",
        "peak RSS <= 300 MB, idle CPU with the streams open <= 5 % of one core.",
        "",
        "| Backend | Streams | Opened in | RSS open | Idle CPU | Events | Missing | p50 ms | p99 ms | max ms | Peak RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['label']} | {r['streams']:,} | {r['opened_in']:.1f} s | {r['rss_open']:.0f} MB | {r['idle_cpu']:.1f} % "
            f"| {r['deposits_ok']}/{r['moved']} | {r['missing']} | {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['peak_rss']:.0f} MB |"
        )
    verdicts = []
    for r in results:
        met = r["missing"] == 0 and r["max"] < 1000 and r["peak_rss"] <= 300 and r["idle_cpu"] <= 5
        verdicts.append(f"{r['label']}: {'all targets met' if met else 'a target missed'}")
    lines += ["", "; ".join(verdicts) + ".", ""]
    return lines


if __name__ == "__main__":
    runs = [run("SQLite")]
    admin = os.environ.get("FERRY_BENCH_DATABASE_URL")
    if admin:
        url, name = postgres_database(admin)
        try:
            runs.append(run("PostgreSQL", url))
        finally:
            subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)
    print("\n".join(report(runs)))
