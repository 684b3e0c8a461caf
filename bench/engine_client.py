"""Shared client code for the benchmarks: spawn the engine, call it, time calls, summarise.

Standard library only. Used by bench/run.py, bench/search_latency.py and bench/compare_stdio.py.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EMBEDDED_DB = os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "default.sqlite")


def default_engine():
    for path in (os.path.join(ROOT, ".build-rel", "release", "stol-engine"),
                 os.path.join(ROOT, ".build", "release", "stol-engine")):
        if os.path.exists(path):
            return path
    return os.path.join(ROOT, ".build", "release", "stol-engine")


class RPCError(Exception):
    def __init__(self, method, error):
        super().__init__(f"{method}: {error}")
        self.error = error

    @property
    def kind(self):
        return (self.error.get("data") or {}).get("kind")


class Engine:
    """One engine process on pipes. `call` is one request in flight at a time; notifications
    (such as `$/progress`) that arrive before the answer go to `on_notification`."""

    def __init__(self, engine=None, database=None, extra=(), data_dir=None, argv=None):
        self.own_data_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="stol-bench-")
        if argv is None:
            argv = [engine or default_engine(), "--log-level", "error", "--data-dir", self.data_dir]
            if database:
                argv += ["--database", database]
            argv += list(extra)
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.on_notification = None

    @property
    def pid(self):
        return self.proc.pid

    def send(self, obj):
        self.proc.stdin.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine exited (code {self.proc.poll()})")
        return json.loads(line)

    def call(self, method, params=None, allowed=()):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.send(request)
        while True:
            response = self.read()
            if "id" not in response:
                if self.on_notification:
                    self.on_notification(response)
                continue
            if response["id"] != self.next_id:
                continue
            if "error" in response:
                if (response["error"].get("data") or {}).get("kind") in allowed:
                    return None
                raise RPCError(method, response["error"])
            return response["result"]

    def timed(self, method, params=None, allowed=()):
        """(milliseconds, result) of one call."""
        start = time.perf_counter()
        result = self.call(method, params, allowed)
        return (time.perf_counter() - start) * 1000, result

    def pipelined(self, lines, expected):
        """Writes raw request lines from a thread while reading `expected` response lines; returns
        (seconds, response lines)."""
        def writer():
            w = self.proc.stdin
            for chunk_start in range(0, len(lines), 256):
                w.write(b"".join(lines[chunk_start:chunk_start + 256]))
            w.flush()
        start = time.perf_counter()
        t = threading.Thread(target=writer)
        t.start()
        out = []
        readline = self.proc.stdout.readline
        while len(out) < expected:
            line = readline()
            if not line:
                raise RuntimeError("engine exited during a pipelined run")
            out.append(line)
        elapsed = time.perf_counter() - start
        t.join()
        return elapsed, out

    def status(self, key="VmHWM"):
        """A /proc/PID/status field in bytes (VmHWM: peak resident set)."""
        return proc_status(self.pid, key)

    def close(self, timeout=30):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.own_data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def proc_status(pid, key="VmHWM"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def summary(values):
    """dict with median, p99, min, max and n of a list of numbers."""
    values = sorted(values)
    return {"n": len(values), "median": statistics.median(values), "p99": percentile(values, 0.99),
            "min": values[0], "max": values[-1]}


def log(*args):
    print(*args, file=sys.stderr, flush=True)
