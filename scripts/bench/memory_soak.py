#!/usr/bin/env python3
"""`make soak-memory`: does Ferry's memory stay flat under mixed real use (issue 20, item 5)?

Starts target/release/ferry (SQLite, or PostgreSQL with SOAK_DATABASE_URL set to an admin URL:
a database is created and dropped), runs SOAK_MINUTES (default 30) of mixed load, then
SOAK_IDLE_MINUTES (default 5) idle, and samples the server's RSS every SOAK_SAMPLE_SECONDS.

The load is what a day of customers, partners and monitors does at once: quotes on many pairs,
orders created, looked at, followed over their event streams and moved through their steps by
the sandbox, accounts registered and signed in and out, signed partner calls, the rate files
downloaded whole, gzipped and filtered, and the site's pages and lists.

Passes when the peak RSS is at or below SOAK_LIMIT_MB (150), the last quarter of the load stays
within 10 % of the second (a plateau), the RSS does not grow while idle (the last idle sample is
no more than 2 MB above the first), no request meets a server error or a broken connection, and
each kind of use is answered 2xx at least half the time. Prints a Markdown section for
docs/benchmarks.md and writes every sample to SOAK_CSV (default /tmp/ferry-memory-soak.csv).
SOAK_HEAPTRACK=1 runs the server under heaptrack (a binary built with `--no-default-features`,
given as SOAK_BINARY) and writes its profile to /tmp/ferry-soak.heaptrack.zst.
SOAK_JEPROF=1 turns on jemalloc's sampling heap profiler in a binary that has it and keeps its
symbols: `cargo build --profile profiling --locked --features heap-profile`, then
SOAK_BINARY=target/profiling/ferry. A dump at every 2 GiB allocated lands in
/tmp/ferry-soak-heap.*.heap, and after the report jeprof (Debian's libjemalloc-dev) prints what
grew between the dump at a quarter of the load and the last one. The profiler's own samples add
to the RSS: judge the 150 MB target on a run without it.
"""
import glob
import hashlib
import hmac
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import free_port, rss_kb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("SOAK_BINARY", os.path.join(ROOT, "target/release/ferry"))
MINUTES = float(os.environ.get("SOAK_MINUTES", "30"))
IDLE_MINUTES = float(os.environ.get("SOAK_IDLE_MINUTES", "5"))
SAMPLE_SECONDS = float(os.environ.get("SOAK_SAMPLE_SECONDS", "5"))
LIMIT_MB = float(os.environ.get("SOAK_LIMIT_MB", "150"))
CSV = os.environ.get("SOAK_CSV", "/tmp/ferry-memory-soak.csv")
ADMIN_URL = os.environ.get("SOAK_DATABASE_URL")
HEAP_DUMPS = os.path.join(tempfile.gettempdir(), "ferry-soak-heap")
ADMIN_TOKEN = "soak-admin-" + uuid.uuid4().hex
PASSWORD = "Correct1horse"

# Destinations that pass Ferry's checksums, and the coins sent to them.
DESTINATIONS = {
    "ETH": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "BTC": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    "USDT": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "LTC": "LQ3B36Yv2rBTxdgAdYpU2UcEZsaNwXeATk",
}
SENT = ["BTC", "ETH", "LTC", "XMR", "SOL", "TRX", "DOGE", "USDTTRC", "BNB", "ADA"]
COINS = sorted(set(SENT) | set(DESTINATIONS))
PAGES = ["/", "/markets", "/help", "/faq", "/status", "/exchange/btc-eth", "/blog", "/about"]
LISTS = ["/api/available-currencies", "/api/recent-transactions", "/api/status", "/api/site-stats",
         "/api/config", "/api/content/blog", "/api/help/search?q=deposit", "/sitemap.xml"]

stop = threading.Event()
counts = {}
counts_lock = threading.Lock()
orders = []  # (id, token), the latest few hundred
orders_lock = threading.Lock()


def tally(kind, status):
    with counts_lock:
        key = (kind, status // 100 * 100 if status else 0)
        counts[key] = counts.get(key, 0) + 1


class Client:
    """One keep-alive connection, reopened after any failure."""

    def __init__(self, port, forwarded_for=None):
        self.port = port
        self.forwarded_for = forwarded_for
        self.connection = None
        self.headers = {}

    def call(self, kind, method, path, body=None, headers=None, raw=None):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        all_headers = {"content-type": "application/json"} if data is not None else {}
        all_headers.update(headers or {})
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.connection.request(method, path, body=data, headers=all_headers)
            response = self.connection.getresponse()
            payload = response.read()
            self.headers = response.headers
            tally(kind, response.status)
            try:
                return response.status, json.loads(payload)
            except ValueError:
                return response.status, payload
        except (OSError, http.client.HTTPException):
            tally(kind, 0)
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return 0, None


def quoting(port):
    client = Client(port)
    while not stop.is_set():
        pair = random.sample(COINS, 2)
        body = {"from_currency": pair[0], "to_currency": pair[1], "direction": random.choice(["from", "to"]),
                "type": random.choice(["float", "fixed"]),
                "amount": str(round(random.uniform(0.01, 50), random.randint(0, 6)))}
        client.call("quote", "POST", "/api/exchange-rate", body)


def ordering(port):
    client = Client(port)
    admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    while not stop.is_set():
        to = random.choice(list(DESTINATIONS))
        sent = random.choice([c for c in SENT if c != to])
        body = {"fromCcy": sent, "toCcy": to, "direction": "from", "type": random.choice(["float", "fixed"]),
                "amount": str(random.choice([0.05, 0.5, 1, 2.5, 10, 100, 1000])), "toAddress": DESTINATIONS[to]}
        status, answer = client.call("create order", "POST", "/api/create-order", body,
                                     {"idempotency-key": uuid.uuid4().hex})
        if status != 200 or not isinstance(answer, dict) or answer.get("code") != 0:
            time.sleep(0.05)
            continue
        order = answer["data"]
        with orders_lock:
            orders.append((order["id"], order["token"]))
            del orders[:-300]
        client.call("order details", "GET", f"/api/order-details/{order['id']}?token={order['token']}")
        client.call("track order", "POST", "/api/track-order", {"order_id": order["id"]})
        if random.random() < 0.7:
            client.call("deposit", "POST", "/api/admin/sandbox/deposit", {"order_id": order["id"]}, admin)


def watching(port):
    """Opens an order's event stream, reads it for a few seconds and leaves."""
    while not stop.is_set():
        with orders_lock:
            chosen = random.choice(orders) if orders else None
        if chosen is None:
            time.sleep(0.2)
            continue
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=8)
        try:
            connection.request("GET", f"/api/orders/{chosen[0]}/events?token={chosen[1]}")
            response = connection.getresponse()
            tally("event stream", response.status)
            until = time.time() + random.uniform(1, 6)
            while time.time() < until and not stop.is_set():
                if not response.fp or not response.fp.readline():
                    break
        except TimeoutError:
            pass  # a quiet order: the customer leaves
        except (OSError, http.client.HTTPException):
            tally("event stream", 0)
        finally:
            connection.close()


def monitoring(port):
    """Rate monitors: the whole files, gzipped, conditional and filtered."""
    client = Client(port)
    etags = {}
    while not stop.is_set():
        kind = random.choice(["float", "fixed"])
        headers = {"accept-encoding": "gzip"} if random.random() < 0.5 else {}
        version = (kind, "accept-encoding" in headers)
        if version in etags and random.random() < 0.3:
            headers["if-none-match"] = etags[version]
        path = f"/rates/{kind}.xml"
        if random.random() < 0.3:
            path += f"?from={random.choice(SENT)}&to={random.choice(list(DESTINATIONS))}"
        status, _ = client.call("rate file", "GET", path, headers=headers)
        if status == 200 and "?" not in path and client.headers.get("etag"):
            etags[version] = client.headers["etag"]
        time.sleep(0.5)


def browsing(port):
    client = Client(port)
    while not stop.is_set():
        path = random.choice(PAGES + LISTS)
        client.call("page", "GET", path, headers={"accept-encoding": "gzip, br"})
        time.sleep(0.01)


def accounts(port, verify):
    """Registers, signs in, looks at the account, and signs out."""
    n = 0
    while not stop.is_set():
        n += 1
        client = Client(port, None)
        email = f"soak-{uuid.uuid4().hex[:10]}@example.com"
        client.call("register", "POST", "/api/register",
                    {"email": email, "password": PASSWORD, "confirm_password": PASSWORD})
        status, answer = client.call("login", "POST", "/api/login", {"email": email, "password": PASSWORD})
        token = answer.get("token") if isinstance(answer, dict) else None
        if token:
            auth = {"authorization": f"Bearer {token}"}
            client.call("account", "GET", "/api/user", headers=auth)
            client.call("account", "GET", "/api/orders", headers=auth)
            client.call("account", "GET", "/api/affiliate", headers=auth)
            client.call("logout", "POST", "/api/logout", {}, auth)
        if n % 20 == 0:
            time.sleep(0.5)


def partner_key(port, verify):
    client = Client(port)
    email = f"partner-{uuid.uuid4().hex[:8]}@example.com"
    client.call("register", "POST", "/api/register", {"email": email, "password": PASSWORD, "confirm_password": PASSWORD})
    verify(email)
    _, signed_in = client.call("login", "POST", "/api/login", {"email": email, "password": PASSWORD})
    _, made = client.call("api key", "POST", "/api/api-keys", {"name": "soak", "permission": "trade"},
                          {"authorization": f"Bearer {signed_in['token']}"})
    return made["key"]["id"], made["secret"]


def partnering(port, key, secret):
    client = Client(port)
    while not stop.is_set():
        method, body = random.choice([
            ("price", {"type": "float", "fromCcy": random.choice(SENT), "toCcy": "ETH", "direction": "from",
                       "amount": "0.5"}),
            ("ccies", {}),
            ("create", {"type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from", "amount": "0.1",
                        "toAddress": DESTINATIONS["ETH"]}),
        ])
        raw = json.dumps(body).encode()
        sign = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
        client.call("partner", "POST", f"/api/v2/{method}", raw=raw, headers={
            "content-type": "application/json", "x-api-key": key, "x-api-sign": sign})
        time.sleep(0.02)


def start_server(data_dir, database_url):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FERRY_")}
    env.update(
        FERRY_LISTEN=f"127.0.0.1:{port}", FERRY_DATA_DIR=data_dir, FERRY_LOG="warn", FERRY_LOG_FORMAT="json",
        FERRY_ADMIN_TOKEN=ADMIN_TOKEN, FERRY_QUOTE_RATE_PER_MINUTE="100000000",
        FERRY_ORDER_RATE_PER_MINUTE="100000000", FERRY_REGISTER_RATE_PER_HOUR="100000000",
        FERRY_PARTNER_RATE_PER_MINUTE="100000000", FERRY_CONNECTIONS_PER_CLIENT="100000",
        FERRY_STREAMS_PER_CLIENT="100000", FERRY_LOGIN_ATTEMPTS="1000000",
        FERRY_SANDBOX_STEP_SECONDS="2", FERRY_RATES_REFRESH_SECONDS="10", FERRY_STATUS_CHECK_SECONDS="5",
        FERRY_METRICS_ALLOW="127.0.0.1/32",
    )
    if database_url:
        env["FERRY_DATABASE_URL"] = database_url
        env["FERRY_KEY_SECRET"] = "soak-key-secret-" + uuid.uuid4().hex
    command = [BINARY, "serve"]
    if os.environ.get("SOAK_HEAPTRACK") == "1":
        command = ["heaptrack", "-o", os.path.join(tempfile.gettempdir(), "ferry-soak.heaptrack")] + command
    if os.environ.get("SOAK_JEPROF") == "1":
        for old in glob.glob(glob.escape(HEAP_DUMPS) + ".*.heap"):
            os.remove(old)
        env["MALLOC_CONF"] = f"prof:true,lg_prof_sample:19,lg_prof_interval:31,prof_prefix:{HEAP_DUMPS}"
    log = open(os.path.join(data_dir, "server.log"), "ab")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    deadline = time.time() + 60
    while time.time() < deadline:
        if Client(port).call("ready", "GET", "/readyz")[0] == 200:
            return port, process
        time.sleep(0.1)
    raise SystemExit("the server did not get ready in 60 s")


def server_pid(process):
    """The ferry process itself (heaptrack runs it as a child)."""
    if os.environ.get("SOAK_HEAPTRACK") != "1":
        return process.pid
    for _ in range(50):
        found = subprocess.run(["pgrep", "-f", "-n", f"{BINARY} serve"], capture_output=True, text=True)
        if found.stdout.strip():
            return int(found.stdout.split()[0])
        time.sleep(0.1)
    return process.pid


def largest_mappings(pid, count=8):
    """The mappings holding the most RSS (`/proc/PID/smaps`), anonymous ones summed by kind: where
    RSS outside the heap lives (the binary's pages, SQLite's files, thread stacks)."""
    sizes, name, previous_guard = {}, None, False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
                perms, path = head[1], " ".join(head[5:])
                # A thread's stack is an anonymous mapping right after its guard page (---p).
                name = path or ("thread stacks" if previous_guard else "anonymous (heap and the rest)")
                previous_guard = perms == "---p" and not path
            elif head[0] == "Rss:":
                sizes[name] = sizes.get(name, 0) + int(head[1])
    top = sorted(sizes.items(), key=lambda item: -item[1])[:count]
    top = [(os.path.basename(n) if n.startswith("/") else n, kb / 1024) for n, kb in top]
    # Pages the allocator gave back lazily (MADV_FREE) still count in RSS until the kernel
    # needs them.
    with open(f"/proc/{pid}/smaps_rollup") as f:
        lazy = sum(int(line.split()[1]) for line in f if line.startswith("LazyFree:"))
    return top + [("of which lazily freed", lazy / 1024)]


def main():
    if not os.path.exists(BINARY):
        raise SystemExit("target/release/ferry is missing: make build")
    data_dir = tempfile.mkdtemp(prefix="ferry-soak-")
    database_url, db_name = None, None
    if ADMIN_URL:
        db_name = "ferry_soak_" + uuid.uuid4().hex[:10]
        subprocess.run(["psql", "-qtAX", ADMIN_URL, "-c", f"CREATE DATABASE {db_name}"], check=True)
        base, _, query = ADMIN_URL.partition("?")
        database_url = base.rsplit("/", 1)[0] + "/" + db_name + (f"?{query}" if query else "")

    def verify(email):
        sql = "UPDATE users SET email_verified_at = 1 WHERE email = ?"
        if database_url:
            subprocess.run(["psql", "-qtAX", database_url, "-c", sql.replace("?", f"'{email}'")], check=True)
        else:
            with sqlite3.connect(os.path.join(data_dir, "ferry.db"), timeout=30) as db:
                db.execute(sql, (email,))

    port, process = start_server(data_dir, database_url)
    pid = server_pid(process)
    # (seconds since start, phase, rss MB, heap allocated MB, heap resident MB, anon MB, file MB)
    samples = []
    mappings_at_peak = []
    started = time.time()
    metrics = Client(port)

    def heap():
        """jemalloc's view (see src/main.rs): what the program holds, and what is kept for it."""
        _, text = metrics.call("metrics", "GET", "/metrics")
        found = {}
        for line in (text.decode() if isinstance(text, bytes) else "").splitlines():
            name, _, value = line.partition(" ")
            if name in ("ferry_heap_allocated_bytes", "ferry_heap_resident_bytes"):
                found[name] = float(value) / 1024 / 1024
        return found.get("ferry_heap_allocated_bytes"), found.get("ferry_heap_resident_bytes")

    def sample(phase):
        rss = rss_kb(pid, "VmRSS") / 1024
        kinds = (rss_kb(pid, "RssAnon") / 1024, rss_kb(pid, "RssFile") / 1024)
        samples.append((time.time() - started, phase, rss, *heap(), *kinds))
        if rss >= max(s[2] for s in samples):
            mappings_at_peak[:] = largest_mappings(pid)

    try:
        # The rate files exist a moment after start: monitors are let in once they do.
        waiting = Client(port)
        deadline = time.time() + 60
        while waiting.call("ready", "GET", "/rates/fixed.xml")[0] != 200 and time.time() < deadline:
            time.sleep(0.2)
        sample("start")
        key, secret = partner_key(port, verify)
        workers = [threading.Thread(target=quoting, args=(port,)) for _ in range(3)]
        workers += [threading.Thread(target=ordering, args=(port,)) for _ in range(2)]
        workers += [threading.Thread(target=watching, args=(port,)) for _ in range(12)]
        workers += [threading.Thread(target=monitoring, args=(port,)) for _ in range(2)]
        workers += [threading.Thread(target=browsing, args=(port,)) for _ in range(2)]
        workers += [threading.Thread(target=accounts, args=(port, verify))]
        workers += [threading.Thread(target=partnering, args=(port, key, secret))]
        for worker in workers:
            worker.daemon = True
            worker.start()
        load_until = started + MINUTES * 60
        while time.time() < load_until:
            time.sleep(SAMPLE_SECONDS)
            sample("load")
            if process.poll() is not None:
                raise SystemExit("the server died under load")
        stop.set()
        for worker in workers:
            worker.join(timeout=30)
        idle_until = time.time() + IDLE_MINUTES * 60
        while time.time() < idle_until:
            time.sleep(SAMPLE_SECONDS)
            sample("idle")
        peak = rss_kb(pid, "VmHWM") / 1024
    finally:
        if pid != process.pid:  # under heaptrack: the server itself, so that heaptrack writes its file
            os.kill(pid, signal.SIGTERM)
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
        if db_name:
            subprocess.run(["psql", "-qtAX", ADMIN_URL, "-c", f"DROP DATABASE IF EXISTS {db_name} WITH (FORCE)"])
        shutil.rmtree(data_dir, ignore_errors=True)

    with open(CSV, "w") as f:
        f.write("seconds,phase,rss_mb,heap_allocated_mb,heap_resident_mb,anon_mb,file_mb\n")
        f.writelines(f"{s:.0f},{p},{m:.1f},{a or 0:.1f},{r or 0:.1f},{an:.1f},{fi:.1f}\n"
                     for s, p, m, a, r, an, fi in samples)
    verdict = report(samples, peak, database_url is not None, mappings_at_peak)
    if os.environ.get("SOAK_JEPROF") == "1":
        heap_growth()
    return verdict


def heap_growth():
    """What the sampled heap held more of in the last dump of the load than in the dump a quarter
    of the way in, by function (flat, then with callers' totals)."""
    dumps = sorted(glob.glob(glob.escape(HEAP_DUMPS) + ".*.i*.heap"), key=lambda path: int(path.rsplit(".i", 1)[1].split(".")[0]))
    if not dumps:
        print("\nNo heap dumps: the binary has no heap profiler (build it with --features heap-profile)")
        return
    if len(dumps) < 2:
        print("\nOne heap dump: too few to compare (a longer run allocates more)")
        return
    base, last = dumps[len(dumps) // 4], dumps[-1]
    print(f"\nHeap grown from {os.path.basename(base)} to {os.path.basename(last)} ({len(dumps)} dumps):")
    for order in ([], ["--cum"]):
        # A password hash's 19 MiB comes and goes within a second: it is in a dump or not.
        try:
            jeprof = subprocess.run(["jeprof", "--text", *order, "--ignore=hash_password_now", f"--base={base}", BINARY, last],
                                    capture_output=True, text=True)
        except OSError as error:
            print(f"jeprof could not run ({error}): apt-get install libjemalloc-dev")
            return
        if jeprof.returncode != 0:
            print(f"jeprof failed: {jeprof.stderr.strip()}")
            return
        print("\n".join(jeprof.stdout.splitlines()[:40]))


def report(samples, peak, postgres, mappings_at_peak):
    load = [m for _, p, m, *_ in samples if p == "load"]
    idle = [m for _, p, m, *_ in samples if p == "idle"]
    held = [a for _, p, _, a, *_ in samples if p != "start" and a is not None]
    second_half = load[len(load) // 2:] or load
    plateau = max(second_half) if second_half else 0
    first_half_max = max(load[: len(load) // 2] or load or [0])
    # A plateau, not a slope: the last quarter of the load stays within 10 % of the second.
    quarter = max(len(load) // 4, 1)
    second_quarter, last_quarter = max(load[quarter:2 * quarter] or [0]), max(load[-quarter:] or [0])
    growing = last_quarter > second_quarter * 1.1
    idle_growth = (idle[-1] - idle[0]) if len(idle) > 1 else 0
    requests = sum(counts.values())
    errors = sum(n for (kind, status), n in counts.items() if status in (0, 500) and kind not in ("metrics", "ready"))
    # Each kind of use must mostly succeed, or the load did not exercise what it names.
    thin = [kind for kind in {k for k, _ in counts} - {"metrics", "ready", "api key"}
            if counts.get((kind, 200), 0) < sum(n for (k, _), n in counts.items() if k == kind) / 2]
    ok = peak <= LIMIT_MB and not growing and idle_growth <= 2.0 and errors == 0 and not thin
    backend = "PostgreSQL" if postgres else "SQLite"
    print(f"\n### Memory under mixed use ({backend}, {MINUTES:g} min of load, {IDLE_MINUTES:g} min idle)\n")
    print(f"{requests:,} requests ({errors} failed); RSS at start {samples[0][2]:.1f} MB, "
          f"highest in the first half of the load {first_half_max:.1f} MB, in the second half "
          f"{plateau:.1f} MB (target <= {LIMIT_MB:g}), peak {peak:.1f} MB; idle from "
          f"{idle[0] if idle else 0:.1f} to {idle[-1] if idle else 0:.1f} MB "
          f"({idle_growth:+.1f} MB, target no growth)." + (
              f" The heap itself held at most {max(held):.1f} MB, {held[-1]:.1f} MB at the end." if held else "") + "\n")
    print("| Kind | 2xx | 3xx | 4xx | 5xx | failed |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in sorted({k for k, _ in counts} - {"metrics", "ready"}):
        row = [counts.get((kind, s), 0) for s in (200, 300, 400, 500, 0)]
        print(f"| {kind} | " + " | ".join(f"{n:,}" for n in row) + " |")
    top = max(samples, key=lambda s: s[2])
    print(f"\nAt the highest sample ({top[2]:.1f} MB, {top[0]:.0f} s): anonymous {top[5]:.1f} MB, "
          f"file pages {top[6]:.1f} MB; jemalloc held {top[4] or 0:.1f} MB for a heap of "
          f"{top[3] or 0:.1f} MB. Largest mappings: "
          + ", ".join(f"{name} {mb:.1f} MB" for name, mb in mappings_at_peak) + ".")
    if growing:
        print(f"\nStill growing: the last quarter of the load reached {last_quarter:.1f} MB, "
              f"the second {second_quarter:.1f} MB.")
    if thin:
        print(f"\nMostly refused: {', '.join(sorted(thin))}.")
    print(f"\n{'PASS' if ok else 'FAIL'} (peak <= {LIMIT_MB:g} MB, a plateau, flat while idle, no "
          f"server errors, each kind of use mostly answered): samples in {CSV}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
