#!/usr/bin/env python3
"""Stdio fuzzer for stol-engine: random and mutated lines sent to the real binary.

    python3 fuzz/stdio_fuzz.py [--seconds 20] [--seed 1] [--engine .build/debug/stol-engine] [-v]

Every input line is classified here exactly as the protocol README says the engine must treat it
(blank, over the size cap, invalid UTF-8 / JSON, batch, notification, request, invalid request),
which gives the responses it must produce: how many, which ids, which error codes. Lines are sent
in small windows; the responses of a window are matched against what its lines call for.

Checks: every stdout line is one strict JSON-RPC 2.0 response, batch response or notification
(nothing else ever reaches stdout); each request line gets exactly one answer and each
notification none; the process never dies and exits 0 at end of input; peak memory (VmRSS from
/proc/PID/status, sampled) stays under --max-rss-mb. A failing window is replayed line by line
in a fresh engine to name the guilty input.

The database/*, media/*, storage/report, diagnostics/* and about methods get hostile params too:
missing files, directories, /dev/null, /dev/zero, /proc files, a sparse file over the 2 GiB
limit, empty, junk, truncated and corrupted envelopes, the wrong kind of envelope, huge and odd
strings, wrong types; now and then a real signed database or media pack made at start (see
Fixtures), so imports, switches and deletes really happen. Every engine gets its own temporary
data directory.

Two engines run: the main one with the default 64 MiB cap (which also gets a 50 MB request line
it must answer), and one with --max-message-bytes 1000000 that gets the 50 MB line and must answer
-32600 (messageTooLarge) and keep serving.

With --mode mcp the same checks run against `stol-engine mcp --test-tools`: MCP's methods
(initialize, ping, tools/list, tools/call with every tool, unknown tools and hostile arguments)
join the mix; `notifications/cancelled` is never sent, since MCP answers no cancelled request.

Prints `N passed, N failed` (N = input lines checked) and exits 1 on any failure.
"""
import argparse
import json
import math
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.setrecursionlimit(20000)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_CAP = 64 << 20   # --max-message-bytes default
MODE = "jsonrpc"         # or "mcp" (--mode)

# ---------------------------------------------------------------------------------------------
# Strict JSON that keeps number text (ids are echoed with their exact spelling): the tools' shared module

sys.path.insert(0, os.path.join(ROOT, "protocol"))
from strict_json import MAX_DEPTH, Num, Raw, dumps, loads  # noqa: E402,F401


def strict_loads(data, strict_keys=False):
    """bytes -> value; raises ValueError('utf8'|'json'). Mirrors JSONParser."""
    return loads(data, strict_keys=strict_keys)


_SURROGATE = re.compile("[\ud800-\udfff]")


def id_key(value):
    """How a response id is matched: strings by value (lone surrogates read as U+FFFD), numbers by text."""
    if value is None:
        return ("null",)
    if isinstance(value, Num):
        return ("n", value.text)
    return ("s", _SURROGATE.sub("\ufffd", value))


# ---------------------------------------------------------------------------------------------
# What a line calls for


class Skip(Exception):
    """The line would end or wedge the session (exit, shutdown, a watched parent pid, long sleeps)."""




def guard_request(method, params):
    if method in ("exit", "shutdown"):
        raise Skip(method)
    if MODE == "mcp" and method == "notifications/cancelled":
        raise Skip("cancel")
    if method == "tools/call" and isinstance(params, dict) and params.get("name") == "test_sleep":
        args = params.get("arguments")
        ms = args.get("ms") if isinstance(args, dict) else None
        if isinstance(ms, Num) and (_num(ms) is None or _num(ms) > 300):
            raise Skip("sleep")
    if method == "initialize" and isinstance(params, dict) and "processId" in params:
        raise Skip("processId")
    if method == "test/sleep":
        ms = params.get("ms") if isinstance(params, dict) else None
        if not (isinstance(ms, Num) and _num(ms) is not None and _num(ms) <= 300):
            raise Skip("sleep")
    if method == "test/progress" and isinstance(params, dict):
        d, s = params.get("delayMs"), params.get("steps")
        if isinstance(d, Num) and isinstance(s, Num):
            dv, sv = _num(d), _num(s)
            if dv is None or sv is None or dv * sv > 300:
                raise Skip("progress")
        elif isinstance(d, Num):
            raise Skip("progress")


def _num(n):
    try:
        v = float(n.text)
        return v if math.isfinite(v) else None
    except ValueError:
        return None


def classify_entry(v):
    """IncomingMessage's rules -> ('invalid', idkey) | ('response',) | ('request', idkey|None, method)."""
    if not isinstance(v, dict):
        return ("invalid", ("null",))
    ident = None
    has_id = "id" in v
    if has_id:
        raw = v["id"]
        if not (raw is None or isinstance(raw, (Num, str))) or isinstance(raw, bool):
            return ("invalid", ("null",))
        ident = id_key(raw)
    if not (type(v.get("jsonrpc")) is str and v.get("jsonrpc") == "2.0"):
        return ("invalid", ident or ("null",))
    if "method" not in v:
        if "result" in v or "error" in v:
            return ("response",)
        return ("invalid", ident or ("null",))
    method = v["method"]
    if type(method) is not str:
        return ("invalid", ident or ("null",))
    if "params" in v and not isinstance(v["params"], (dict, list)):
        return ("invalid", ident or ("null",))
    guard_request(method, v.get("params"))
    if not has_id:
        return ("request", None, method)
    return ("request", ident, method)


def expectations(unit, cap):
    """The outputs a unit (bytes, one or more LF-terminated lines) must produce.

    Returns (lines, slots): lines = the input lines counted as cases; slots = expected outputs,
    each ('single', idkey, kind) or ('batch', sorted [(idkey, kind)]), kind in
    parse/invalid/request/toolarge."""
    lines = unit.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    slots = []
    for line in lines:
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > cap:
            slots.append(("single", ("null",), "toolarge"))
            continue
        if all(b in (0x20, 0x09, 0x0D) for b in line):
            continue
        try:
            value = strict_loads(line)
        except ValueError:
            slots.append(("single", ("null",), "parse"))
            continue
        if isinstance(value, list):
            if not value:
                slots.append(("single", ("null",), "invalid"))
                continue
            parts = []
            for entry in value:
                c = classify_entry(entry)
                if c[0] == "invalid":
                    parts.append((c[1], "invalid"))
                elif c[0] == "request" and c[1] is not None:
                    parts.append((c[1], "request:" + c[2]))
                elif c[0] == "request" and c[2] == "$/cancelRequest":
                    pass
            if parts:
                slots.append(("batch", sorted(parts)))
            continue
        c = classify_entry(value)
        if c[0] == "invalid":
            slots.append(("single", c[1], "invalid"))
        elif c[0] == "request" and c[1] is not None:
            slots.append(("single", c[1], "request:" + c[2]))
    return lines, slots


# ---------------------------------------------------------------------------------------------
# Checking output lines


def check_response(r):
    if not isinstance(r, dict):
        return "not an object"
    if set(r) - {"jsonrpc", "id", "result", "error"}:
        return f"extra members {sorted(set(r) - {'jsonrpc', 'id', 'result', 'error'})}"
    if not (type(r.get("jsonrpc")) is str and r["jsonrpc"] == "2.0"):
        return "jsonrpc is not \"2.0\""
    if "id" not in r or not (r["id"] is None or isinstance(r["id"], (Num, str))):
        return "bad id"
    if ("result" in r) == ("error" in r):
        return "needs exactly one of result and error"
    if "error" in r:
        e = r["error"]
        if not isinstance(e, dict) or set(e) - {"code", "message", "data"}:
            return "bad error object"
        if not isinstance(e.get("code"), Num) or not re.fullmatch(r"-?\d+", e["code"].text):
            return "error code is not an integer"
        if type(e.get("message")) is not str:
            return "error message is not a string"
    return None


def parse_output(raw):
    """One stdout line -> ('response', r) | ('batch', [r]) | ('notification', n); raises ValueError."""
    if b"\r" in raw:
        raise ValueError("CR in an output line")
    if "\u2028".encode() in raw or "\u2029".encode() in raw:
        raise ValueError("raw U+2028/U+2029 in an output line")
    try:
        v = strict_loads(raw, strict_keys=True)
    except ValueError as e:
        raise ValueError(f"output line is not strict JSON ({e})")
    if isinstance(v, list):
        if not v:
            raise ValueError("empty batch response")
        for r in v:
            problem = check_response(r)
            if problem:
                raise ValueError(f"batch entry: {problem}")
        return ("batch", v)
    if isinstance(v, dict) and "method" in v and "id" not in v:
        if set(v) - {"jsonrpc", "method", "params"} or v.get("jsonrpc") != "2.0" or type(v["method"]) is not str \
                or ("params" in v and not isinstance(v["params"], (dict, list))):
            raise ValueError("malformed notification")
        return ("notification", v)
    problem = check_response(v)
    if problem:
        raise ValueError(problem)
    return ("response", v)


def response_kind_ok(r, kind):
    code = int(r["error"]["code"].text) if "error" in r else None
    if kind == "parse":
        return code == -32700
    if kind == "invalid":
        return code == -32600
    if kind == "toolarge":
        return code == -32600 and isinstance(r["error"].get("data"), dict) \
            and r["error"]["data"].get("kind") == "messageTooLarge"
    return code not in (-32700, -32600)


# ---------------------------------------------------------------------------------------------
# The engine under test


class Engine:
    def __init__(self, command, extra_args=()):
        # Its own data directory: imports, switches, media packs and diagnostics touch nothing real.
        self.data_dir = tempfile.mkdtemp(prefix="stol-stdio-fuzz-")
        self.proc = subprocess.Popen(
            list(command) + ([] if MODE == "mcp" else ["--conformance-methods"]) + ["--data-dir", self.data_dir]
            + list(extra_args),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        self.trailing = b""
        self.max_rss_kb = 0
        self.stderr_tail = b""
        self.internal_logs = []
        self._stop = False
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        threading.Thread(target=self._sample_rss, daemon=True).start()

    def _read_stdout(self):
        buf = b""
        while True:
            chunk = self.proc.stdout.read(1 << 16)
            if not chunk:
                break
            buf += chunk
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    break
                self.lines.put(buf[:nl])
                buf = buf[nl + 1:]
        self.trailing = buf
        self.lines.put(None)

    def _read_stderr(self):
        while True:
            chunk = self.proc.stderr.read(1 << 16)
            if not chunk:
                break
            self.stderr_tail = (self.stderr_tail + chunk)[-4000:]
            # The server logs why a request failed internally (-32603); keep those lines.
            self.internal_logs += [line for line in chunk.split(b"\n") if b" failed: " in line][:20]

    def _sample_rss(self):
        path = f"/proc/{self.proc.pid}/status"
        while not self._stop and self.proc.poll() is None:
            try:
                with open(path) as f:
                    for row in f:
                        if row.startswith("VmRSS:"):
                            self.max_rss_kb = max(self.max_rss_kb, int(row.split()[1]))
            except (OSError, ValueError):
                break
            time.sleep(0.01)

    def _write_all(self, data):
        view = memoryview(data)
        while view:
            n = self.proc.stdin.write(view)
            view = view[n:]

    def send(self, data, rng=None):
        """Writes data, sometimes in random pieces; False if the engine's stdin is gone."""
        try:
            if rng is not None and len(data) > 1 and rng.random() < 0.15:
                cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(1, 4))))
                prev = 0
                for cut in cuts + [len(data)]:
                    self._write_all(data[prev:cut])
                    prev = cut
                    time.sleep(0.001)
            else:
                self._write_all(data)
            return True
        except (BrokenPipeError, OSError):
            return False

    def surplus_lines(self):
        """Output lines still queued once every due answer was read: anything but a server
        notification is surplus (a duplicate or unasked answer, or a line that is not JSON)."""
        surplus = []
        while True:
            try:
                raw = self.lines.get_nowait()
            except queue.Empty:
                return surplus
            if raw is not None:
                try:
                    if parse_output(raw)[0] != "notification":
                        surplus.append(raw[:200])
                except ValueError as e:
                    surplus.append(f"bad line ({e}) {raw[:200]!r}")

    def close(self, timeout=60):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = None
        self._stop = True
        shutil.rmtree(self.data_dir, ignore_errors=True)
        return code


# ---------------------------------------------------------------------------------------------
# Inputs

REAL_METHODS = ["taxon/get", "taxon/children", "taxon/ancestors", "taxon/names", "taxon/traits",
                "taxon/references", "taxon/detail", "taxon/roots", "search/query", "search/autocomplete",
                "compare/taxa", "compare/relatives", "compare/stats", "favorites/add", "favorites/remove",
                "favorites/toggle", "favorites/contains", "favorites/count", "favorites/clear",
                "favorites/storageBytes", "favorites/status", "favorites/list", "favorites/export",
                "database/info", "ping", "rpc.discover", "initialize", "initialized", "$/cancelRequest"]
TEST_METHODS = ["subtract", "sum", "notify_hello", "get_data", "test/print", "test/fail", "test/notify",
                "test/sleep", "test/progress"]
REAL_IDS = [1512639034428207, 2863201623367350, 2587860482641905, 4100088141433187, 2512609190134812,
            2616712701740885]
ODD_NUMBERS = ["0", "-0", "-1", "1.5", "1e3", "1E+2", "-1e-7", "9007199254740991", "9007199254740992",
               "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e400", "-1e400",
               "1e-400", "123456789012345678901234567890", "0.0000000000000000000000001", "4e15", "1" * 400,
               "2147483648", "-2147483649", "1.0", "3.00000000000000000001"]
HOSTILE_TEXT = ['"', '""', '"tree frog', '*', 'pan*', '-lion', '^leo', '(', ')', 'a AND b', 'OR', 'NOT x',
                'NEAR(a b)', 'name:lion', 'scientificName:Panthera', "'; DROP TABLE taxa; --", '%', '_',
                '\\', '\u0000', 'lion\u0000leo', '\u2028\u2029', 'Löwe', 'ΛΕΩΝ', '狮子', '🦁', '\ufeff', '\u202e',
                'a' * 200, 'a' * 201, 'x' * 5000, ' ', '\t', 'leo lion', '"leo" "lion"', '{}', 'NULL', 'e\u0301',
                'ﬁ', 'İ', 'ß', '\ud83e', 'a\\u0000']
INTERESTING_TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"\\u0000", b"\\ud800", b"\\udc00",
                      b"1e999", b"-0", b"null", b"true", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80",
                      b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\r", b"\t", b" ", b"\xe2\x80\xa8", b"NaN", b"Infinity",
                      b'"id":', b'"method":', b'"params":', b'"jsonrpc":"2.0"', b"9" * 40, b"[" * 600]


MCP_TOOLS = ["search_taxa", "get_taxon", "list_children", "get_lineage", "compare_taxa", "closest_relatives",
             "database_info", "test_sleep", "nope", "", "GET_TAXON", "get_taxon\u0000"]
MCP_ARGUMENTS = ["taxon", "a", "b", "query", "language", "limit", "count", "cursor", "rank", "conservation", "ms", "x"]

FILE_METHODS = ["database/info", "database/import", "database/cancelImport", "database/activateReference",
                "database/deactivateReference", "media/import", "media/cancelImport", "media/packs", "media/image",
                "media/deletePack", "storage/report", "diagnostics/setEnabled", "diagnostics/status",
                "diagnostics/export", "diagnostics/delete", "about"]


def _png(width, height):
    """A minimal valid grey PNG."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class Fixtures:
    """Files for the database/* and media/* methods, made once per run in a temporary directory.

    Hostile ones (missing, empty, junk, a directory, truncated or corrupted envelopes, a sparse
    file over the 2 GiB limit, a symlink to /dev/zero, the wrong kind of envelope) and, when the
    engine can make them (keygen, pack, pack-media), one real signed database and one real media
    pack, signed with a key every engine of this run trusts (--trusted-key)."""

    def __init__(self, engine):
        self.dir = tempfile.mkdtemp(prefix="stol-stdio-fuzz-files-")
        d = self.dir
        self.key_hex = None
        self.real_db = self.real_media = None
        self.media_id = "fuzz-pack"
        self.hostile = ["/nonexistent/x.stol", os.path.join(d, "missing.stol"), d, d + "/", "/", ".", "..",
                        "/dev/null", "/dev/zero", "/dev/urandom", "/proc/self/status", "/proc/self/mem",
                        "/etc/passwd", "relative/x.stol", "~/x.stol", "file:///etc/passwd", " ", "\t",
                        os.path.join(d, "x\u0000.stol"), os.path.join(d, "é🦁\u2028.stol"), "a" * 5000,
                        "/" + "a/" * 3000, "x" * 100000]
        with open(os.path.join(d, "empty.stol"), "wb"):
            pass
        with open(os.path.join(d, "junk.stol"), "wb") as f:
            f.write(os.urandom(3000))
        with open(os.path.join(d, "magic-only.stol"), "wb") as f:
            f.write(b"STOL\x00DB\x01")
        with open(os.path.join(d, "sparse-2GiB.stol"), "wb") as f:
            f.write(b"STOL\x00DB\x01")
            f.truncate((2 << 30) + 1)
        os.symlink("/dev/zero", os.path.join(d, "zero.stol"))
        os.mkdir(os.path.join(d, "dir.stol"))
        self.hostile += [os.path.join(d, n) for n in ("empty.stol", "junk.stol", "magic-only.stol",
                                                     "sparse-2GiB.stol", "zero.stol", "dir.stol")]
        try:
            self._make_real(engine)
        except (OSError, subprocess.SubprocessError) as e:
            print(f"stdio_fuzz: no real .stol / .stolmedia fixtures ({e}); hostile files only", flush=True)

    def _make_real(self, engine):
        d = self.dir
        run = lambda *a: subprocess.run([engine] + list(a), capture_output=True, timeout=120, check=True)
        out = run("keygen", "--out", os.path.join(d, "fuzz.key")).stdout.decode()
        self.key_hex = re.search(r"[0-9a-f]{64}", out).group(0)
        db = os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "default.sqlite")
        real_db = os.path.join(d, "default.stol")
        run("pack", "--db", db, "--key", os.path.join(d, "fuzz.key"), "--out", real_db)
        self.real_db = real_db
        images = os.path.join(d, "images")
        os.mkdir(images)
        with open(os.path.join(images, "leo.png"), "wb") as f:
            f.write(_png(8, 8))
        with open(os.path.join(d, "manifest.csv"), "w") as f:
            f.write(f"file,taxonId,credit,license\nleo.png,{REAL_IDS[3]},Fuzz,CC0 1.0\n")
        real_media = os.path.join(d, "fuzz.stolmedia")
        run("pack-media", "--images", images, "--manifest", os.path.join(d, "manifest.csv"), "--id", self.media_id,
            "--name", "Fuzz", "--pack-version", "1", "--key", os.path.join(d, "fuzz.key"), "--out", real_media)
        self.real_media = real_media
        data = open(real_db, "rb").read()
        for name, body in [("truncated-header.stol", data[:60]), ("truncated-payload.stol", data[:5000]),
                           ("flipped.stol", data[:2000] + bytes([data[2000] ^ 0x40]) + data[2001:]),
                           ("bad-signature.stol", data[:50] + bytes([data[50] ^ 1]) + data[51:])]:
            with open(os.path.join(d, name), "wb") as f:
                f.write(body)
            self.hostile.append(os.path.join(d, name))
        self.hostile.append(real_media)  # a media pack is not a database (and the reverse below)

    def args(self):
        return ["--trusted-key", self.key_hex] if self.key_hex else []

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def load_seeds(vectors):
    seeds = []
    for name in sorted(os.listdir(vectors)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(vectors, name)) as f:
            doc = json.load(f)
        for case in doc["cases"] if isinstance(doc, dict) else doc:
            stream = b""
            for step in case["send"]:
                if isinstance(step, str):
                    stream += step.encode() + b"\n"
                elif "raw" in step or "hex" in step:
                    data = step["raw"].encode() if "raw" in step else bytes.fromhex(step["hex"].replace(" ", ""))
                    stream += data * min(step.get("repeat", 1), 1000)
            seeds += [line for line in stream.split(b"\n") if line.strip()]
    return seeds


class Generator:
    # Real imports take seconds on a debug build (copy, hash, inflate, integrity check, switch):
    # at most one every this many seconds.
    REAL_IMPORT_EVERY = 6.0

    def __init__(self, rng, seeds, fixtures=None):
        self.r = rng
        self.seeds = seeds
        self.fixtures = fixtures
        self.next_real_import = time.monotonic() + 1.0
        self.real_imports = 0
        self.kinds = [
            (self.mutated_vector, 30), (self.random_message, 20), (self.real_method, 25), (self.batch, 8),
            (self.invalid_utf8, 4), (self.huge_number, 3), (self.deep, 2), (self.long_string, 2),
            (self.random_bytes, 3), (self.crlf, 3), (self.file_method, 8),
        ] + ([(self.mcp_method, 40)] if MODE == "mcp" else [])
        self.total = sum(w for _, w in self.kinds)

    def next(self):
        pick = self.r.uniform(0, self.total)
        for fn, w in self.kinds:
            pick -= w
            if pick <= 0:
                return fn.__name__, fn()
        return "random_message", self.random_message()

    # -- pieces
    def rid(self):
        r = self.r.random()
        if r < 0.4:
            return Num(str(self.r.randint(-5, 10**6)))
        if r < 0.6:
            return self.r.choice(["a", "", "x" * self.r.randint(1, 50), "\u2028", "é", "\ud800", "id\u0000"])
        if r < 0.75:
            return Num(self.r.choice(ODD_NUMBERS))
        if r < 0.8:
            return None
        if r < 0.85:
            return self.r.choice([True, False, [], {}, [1], {"a": 1}])
        return Num(str(self.r.randint(0, 10**9)))

    def value(self, depth=0):
        r = self.r.random()
        if depth > 3 or r < 0.35:
            return self.r.choice([None, True, False, Num(self.r.choice(ODD_NUMBERS)), Num(str(self.r.randint(-9, 99))),
                                  self.r.choice(HOSTILE_TEXT), self.r.choice(REAL_IDS) * 1])
        if r < 0.6:
            return [self.value(depth + 1) for _ in range(self.r.randint(0, 4))]
        return {self.r.choice(["id", "a", "b", "taxonId", "taxonIds", "query", "limit", "lang", "cursor", "x",
                               "_meta", "ms", "text", "\u0000", ""]): self.value(depth + 1)
                for _ in range(self.r.randint(0, 4))}

    def message(self, method=None, params=None, notification=None):
        m = {}
        if self.r.random() < 0.95:
            m["jsonrpc"] = "2.0" if self.r.random() < 0.93 else self.r.choice(["1.0", Num("2.0"), None, "2.0 ", 2])
        if notification is None:
            notification = self.r.random() < 0.15
        if not notification:
            m["id"] = self.rid()
        if self.r.random() < 0.97:
            m["method"] = method if method is not None else self.r.choice(
                REAL_METHODS + TEST_METHODS + ["", "nope", "taxon/", "TAXON/GET", "rpc.x", "\u2028", Num("1")])
        if params is not None:
            m["params"] = params
        elif self.r.random() < 0.7:
            m["params"] = self.r.choice([{}, [], None, Num("1"), "x", self.value()])
        if self.r.random() < 0.05:
            m[self.r.choice(["result", "error", "extra"])] = self.value()
        items = list(m.items())
        if self.r.random() < 0.2:
            self.r.shuffle(items)
        ascii_only = self.r.random() < 0.6
        if self.r.random() < 0.95:
            return dumps(dict(items), ascii_only)
        # a repeated member: the last one wins
        return "{" + ",".join(json.dumps(k) + ":" + dumps(v, ascii_only) for k, v in items + items[:1]) + "}"

    # -- kinds (each returns bytes ending in LF)
    def mutated_vector(self):
        data = bytearray(self.r.choice(self.seeds))
        for _ in range(self.r.randint(1, 4)):
            op = self.r.randrange(7)
            pos = self.r.randint(0, len(data))
            if op == 0 and data:
                data[min(pos, len(data) - 1)] = self.r.randrange(256)
            elif op == 1:
                data[pos:pos] = bytes([self.r.randrange(256)])
            elif op == 2 and data:
                del data[pos:pos + self.r.randint(1, 8)]
            elif op == 3:
                data[pos:pos] = self.r.choice(INTERESTING_TOKENS)
            elif op == 4 and data:
                start = self.r.randrange(len(data))
                data[pos:pos] = data[start:start + self.r.randint(1, 32)]
            elif op == 5:
                other = self.r.choice(self.seeds)
                cut = self.r.randint(0, len(other))
                data = data[:pos] + bytearray(other[cut:])
            else:
                data = data[:pos]
        return bytes(data).replace(b"\n", b"") + b"\n"

    def random_message(self):
        return self.message().encode("utf-8", "surrogatepass") + b"\n"

    def file_method(self):
        """database/*, media/*, storage/report, diagnostics/* and about with hostile params."""
        # Imports take a path, the most hostile param: 40 % of these lines.
        method = self.r.choice(["database/import", "media/import"]) if self.r.random() < 0.4 \
            else self.r.choice(FILE_METHODS)
        fx = self.fixtures
        p = {}
        if method in ("database/import", "media/import"):
            r = self.r.random()
            real = fx.real_db if method == "database/import" else fx.real_media
            wrong = fx.real_media if method == "database/import" else fx.real_db
            if real and time.monotonic() >= self.next_real_import and r < 0.3:
                p["path"] = real
                self.next_real_import = time.monotonic() + self.REAL_IMPORT_EVERY
                self.real_imports += 1
            elif r < 0.8 or not (fx.real_db or fx.real_media):
                p["path"] = self.r.choice(fx.hostile + ([wrong] if wrong else []))
            else:
                p["path"] = self.r.choice([None, Num("1"), True, [], {}, [fx.dir], {"path": "/"}, ""])
            if self.r.random() < 0.1:
                del p["path"]
            if self.r.random() < 0.3:
                p["_meta"] = {"progressToken": self.r.choice(["imp", Num(str(self.r.randint(0, 99))), None, []])}
        elif method == "database/deactivateReference":
            if self.r.random() < 0.8:
                p["delete"] = self.r.choice([True, False, True, "yes", Num("1"), None, [], {}])
        elif method == "diagnostics/setEnabled":
            if self.r.random() < 0.9:
                p["enabled"] = self.r.choice([True, False, "true", Num("0"), None, [True]])
        elif method == "media/image":
            if self.r.random() < 0.9:
                p["taxonId"] = self.r.choice([self.r.choice(REAL_IDS), Num(self.r.choice(ODD_NUMBERS)), "1", None, [],
                                              Num(str(REAL_IDS[3])), self.r.randint(-10, 10)])
        elif method == "media/deletePack":
            if self.r.random() < 0.9:
                p["id"] = self.r.choice([fx.media_id, fx.media_id, "../x", "/etc", "", ".", "..", ".hidden", "a" * 100,
                                         "a" * 101, "x\u0000y", "CON", "é", "pack/../../x", "nope", Num("1"), None,
                                         [], "x" * 100000])
        elif self.r.random() < 0.3:
            p = self.r.choice([{"x": self.value()}, {"_meta": {"progressToken": "t"}}, {"path": "/"}])
        params = p if self.r.random() < 0.95 else self.r.choice([[], [p], {}])
        return self.message(method=method, params=params, notification=self.r.random() < 0.05).encode(
            "utf-8", "surrogatepass") + b"\n"

    def mcp_method(self):
        """MCP's methods, tools/call above all, with real and hostile tool names and arguments."""
        method = self.r.choice(["tools/call"] * 6 + ["tools/list", "initialize", "ping", "notifications/initialized",
                                                     "server/discover"])
        p = {}
        if method == "tools/call":
            p["name"] = self.r.choice(MCP_TOOLS) if self.r.random() < 0.9 else self.value()
            if self.r.random() < 0.9:
                args = {}
                for key in self.r.sample(MCP_ARGUMENTS, self.r.randint(0, 4)):
                    r = self.r.random()
                    if key == "ms":
                        args[key] = Num(str(self.r.randint(0, 300)))
                    elif key in ("taxon", "a", "b") and r < 0.5:
                        args[key] = self.r.choice([self.r.choice(REAL_IDS), "lion", "Panthera leo", "Morus", "tiger", "Löwe",
                                                   str(self.r.choice(REAL_IDS))])
                    elif key in ("limit", "count") and r < 0.5:
                        args[key] = Num(self.r.choice(ODD_NUMBERS + ["5", "50", "51"]))
                    else:
                        args[key] = self.r.choice(HOSTILE_TEXT) if r < 0.8 else self.value()
                p["arguments"] = args if self.r.random() < 0.95 else self.value()
            if self.r.random() < 0.2:
                p["_meta"] = {"progressToken": self.r.choice(["t", Num(str(self.r.randint(0, 99))), None, []])}
        elif method == "initialize":
            p["protocolVersion"] = self.r.choice(["2025-11-25", "2025-06-18", "2024-11-05", "1999-01-01", "", Num("1"), None])
            if self.r.random() < 0.5:
                p["capabilities"] = self.value()
        elif self.r.random() < 0.3:
            p = {"x": self.value()}
        params = p if self.r.random() < 0.95 else self.r.choice([[], [p], {}, None])
        if params is None:
            return self.message(method=method, params={}, notification=method.startswith("notifications/")).encode(
                "utf-8", "surrogatepass") + b"\n"
        return self.message(method=method, params=params, notification=method.startswith("notifications/")
                            or self.r.random() < 0.03).encode("utf-8", "surrogatepass") + b"\n"

    def real_method(self):
        method = self.r.choice(["taxon/get", "taxon/detail", "taxon/children", "taxon/ancestors", "search/query",
                                "search/autocomplete", "favorites/add", "favorites/remove", "favorites/toggle",
                                "favorites/contains", "favorites/list", "favorites/export", "compare/taxa",
                                "compare/relatives", "taxon/names"])
        odd_id = lambda: self.r.choice([self.r.choice(REAL_IDS), Num(self.r.choice(ODD_NUMBERS)), None, "1", True,
                                        [], {}, Num(str(self.r.choice(REAL_IDS))), self.r.randint(-10, 10)])
        p = {}
        if method.startswith("taxon/") or method == "compare/relatives":
            p["id"] = odd_id()
            if self.r.random() < 0.3:
                p["limit"] = Num(self.r.choice(ODD_NUMBERS))
            if self.r.random() < 0.3:
                p["cursor"] = self.r.choice(HOSTILE_TEXT + ["eyJuYW1lIjoiQ2hyb21pc3RhIiwiaWQiOjF9", "czoz", "====", "e30="])
        elif method == "search/query":
            p["query"] = self.r.choice(HOSTILE_TEXT) if self.r.random() < 0.8 else self.value()
            for k in ("limit", "offset", "cursor", "rank", "conservation", "lang"):
                if self.r.random() < 0.2:
                    p[k] = self.r.choice([Num(self.r.choice(ODD_NUMBERS)), self.r.choice(HOSTILE_TEXT), None, []])
        elif method == "search/autocomplete":
            p["prefix"] = self.r.choice(HOSTILE_TEXT)
            if self.r.random() < 0.3:
                p["limit"] = Num(self.r.choice(ODD_NUMBERS))
        elif method == "compare/taxa":
            p["a"], p["b"] = odd_id(), odd_id()
        elif method in ("favorites/add", "favorites/toggle"):
            p["taxonId"] = odd_id()
        elif method in ("favorites/remove", "favorites/contains"):
            if self.r.random() < 0.5:
                p["taxonId"] = odd_id()
            else:
                p["taxonIds"] = self.r.choice([[odd_id() for _ in range(self.r.randint(0, 20))], "x", None,
                                               [self.r.choice(REAL_IDS)] * 3000])
        else:
            p["sort"] = self.r.choice(["added", "name", "", "x" * 300, Num("1"), None])
        if self.r.random() < 0.3:
            p["lang"] = self.r.choice(["en", "es", "", "zz", "\u0000", "en-US", Num("1"), "x" * 1000])
        if self.r.random() < 0.1:
            p["_meta"] = {"progressToken": self.r.choice(["t", Num("1"), None, {}])}
        return self.message(method=method, params=p, notification=self.r.random() < 0.05).encode(
            "utf-8", "surrogatepass") + b"\n"

    def batch(self):
        entries = []
        for _ in range(self.r.randint(0, 12)):
            r = self.r.random()
            if r < 0.6:
                entries.append(self.message())
            elif r < 0.75:
                entries.append(self.message(notification=True))
            else:
                entries.append(self.r.choice(["1", "[]", "{}", '"x"', "null", "[1,2]", "[{}]", "true"]))
        text = "[" + ",".join(entries) + "]"
        if self.r.random() < 0.1:
            text = "[" + text + "]"
        return text.encode("utf-8", "surrogatepass") + b"\n"

    def invalid_utf8(self):
        bad = self.r.choice([b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80",
                             b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xfe", b"\xc3",
                             b"\xe2\x82", b"\xf0\x9f\x98", b"\xf8\x88\x80\x80\x80"])
        template = self.r.choice([b'{"jsonrpc":"2.0","id":1,"method":"search/query","params":{"query":"@"}}',
                                  b'{"jsonrpc":"2.0","id":"@","method":"ping"}', b'{"jsonrpc":"2.0","method":"@"}',
                                  b"@", b'["@"]', b'{"jsonrpc":"2.0","id":2,"method":"ping"}@'])
        return template.replace(b"@", bad * self.r.randint(1, 3)) + b"\n"

    def huge_number(self):
        digits = self.r.choice([1000, 10000, 100000])
        n = self.r.choice(["9" * digits, "1e" + "9" * 20, "-" + "1" * digits, "0." + "0" * digits + "1",
                           "1" * digits + "e-" + "9" * 10])
        where = self.r.randrange(3)
        if where == 0:
            return f'{{"jsonrpc":"2.0","id":{n},"method":"ping"}}\n'.encode()
        if where == 1:
            return f'{{"jsonrpc":"2.0","id":"h","method":"taxon/get","params":{{"id":{n}}}}}\n'.encode()
        return f'{{"jsonrpc":"2.0","id":"h","method":"favorites/contains","params":{{"taxonIds":[{n},{n}]}}}}\n'.encode()

    def deep(self):
        n = self.r.choice([511, 512, 513, 1000, 10000, 100000])
        r = self.r.randrange(4)
        if r == 0:
            return b'{"jsonrpc":"2.0","id":"d","method":"ping","params":' + b"[" * n + b"]" * n + b"}\n"
        if r == 1:
            return b'{"jsonrpc":"2.0","id":"d","method":"taxon/get","params":{"id":' + b'{"a":' * n + b"1" \
                + b"}" * n + b"}}\n"
        if r == 2:
            return b"[" * n + b"\n"
        return b'{"jsonrpc":"2.0","id":' + b"[" * n + b"]" * n + b',"method":"ping"}\n'

    def long_string(self):
        s = self.r.choice(["a", "é", "\u2028", "\\n", "\\u0000", "🦁"]) * self.r.choice([1000, 100000, 1000000])
        r = self.r.randrange(3)
        if r == 0:
            return f'{{"jsonrpc":"2.0","id":"{s}","method":"ping"}}\n'.encode()
        if r == 1:
            return f'{{"jsonrpc":"2.0","id":"l","method":"{s}"}}\n'.encode()
        return f'{{"jsonrpc":"2.0","id":"l","method":"search/query","params":{{"query":"{s}"}}}}\n'.encode()

    def random_bytes(self):
        return bytes(self.r.randrange(256) for _ in range(self.r.randint(1, 300))).replace(b"\n", b"") + b"\n"

    def crlf(self):
        ping = lambda: f'{{"jsonrpc":"2.0","id":{self.r.randint(0, 999)},"method":"ping"}}'.encode()
        pieces = [ping(), b"", b" ", b"\t", b"\r", b" \r", ping() + b"\r", ping() + b"\r\r", b"\r" + ping(),
                  ping()[:10] + b"\r" + ping()[10:], b"\x00", ping() + b" \t "]
        return b"\n".join(self.r.choice(pieces) for _ in range(self.r.randint(1, 6))) + b"\n"


# ---------------------------------------------------------------------------------------------
# Running


class Run:
    def __init__(self, args, engine_args=()):
        self.args = args
        self.command = [args.engine] + (["mcp", "--test-tools"] if MODE == "mcp" else []) + list(engine_args)
        self.file_outcomes = {}
        self.internal_logs = []
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.internal_errors = []
        self.kinds = {}
        self.due = {}
        self.slowest = (0.0, [])
        self.skipped = 0
        self.notifications = 0
        self.responses = 0
        self.max_rss_kb = {}

    def fail(self, what, unit=None):
        text = what
        if unit is not None:
            text += f"\n    input ({len(unit)} bytes): {unit[:300]!r}{' ...' if len(unit) > 300 else ''}"
        self.failures.append(text)
        print("FAIL " + text, flush=True)

    def collect(self, engine, slots, deadline):
        """Reads output until every slot is answered or the deadline passes; returns the mismatch text or None."""
        want_single = {}
        want_batch = {}
        for s in slots:
            if s[0] == "single":
                want_single.setdefault(s[1], []).append(s[2])
            else:
                key = tuple(sorted(p[0] for p in s[1]))
                want_batch.setdefault(key, []).append(s[1])
        pending = len(slots)
        problems = []
        while pending > 0:
            left = deadline - time.monotonic()
            if left <= 0:
                problems.append(f"{pending} expected response line(s) never came: singles {want_single}, "
                                f"batches {list(want_batch)}")
                break
            try:
                raw = engine.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                if engine.proc.poll() is not None:
                    problems.append(f"engine died (exit {engine.proc.returncode}); stderr: {engine.stderr_tail[-600:]!r}")
                    break
                continue
            if raw is None:
                problems.append(f"stdout closed (exit {engine.proc.poll()}); stderr: {engine.stderr_tail[-600:]!r}")
                break
            try:
                kind, value = parse_output(raw)
            except ValueError as e:
                problems.append(f"bad output line: {e}: {raw[:300]!r}")
                continue
            if kind == "notification":
                self.notifications += 1
                continue
            self.responses += 1
            if kind == "response":
                key = id_key(value["id"])
                kinds = want_single.get(key)
                if not kinds:
                    problems.append(f"unexpected response {raw[:200]!r}")
                    continue
                ok = [k for k in kinds if response_kind_ok(value, k)]
                if not ok:
                    problems.append(f"wrong answer for id {key}: expected {kinds}, got {raw[:300]!r}")
                    kinds.pop()
                else:
                    kinds.remove(ok[0])
                    self.note_internal(value, ok[0], raw)
                if not kinds:
                    del want_single[key]
            else:
                key = tuple(sorted(id_key(r["id"]) for r in value))
                options = want_batch.get(key)
                if not options:
                    problems.append(f"unexpected batch response {raw[:300]!r}")
                    continue
                parts = options.pop()
                if not options:
                    del want_batch[key]
                remaining = list(parts)
                for r in value:
                    match = next((p for p in remaining if p[0] == id_key(r["id"]) and response_kind_ok(r, p[1])), None)
                    if match is None:
                        problems.append(f"wrong batch entry {dumps(r)[:200]} (expected {parts})")
                    else:
                        remaining.remove(match)
                        self.note_internal(r, match[1], raw)
            pending -= 1
        return "; ".join(problems) if problems else None

    def note_internal(self, r, kind, raw):
        method = kind.split(":", 1)[1] if kind.startswith("request:") else None
        if method in FILE_METHODS:
            if "error" in r:
                data = r["error"].get("data")
                outcome = data.get("kind") if isinstance(data, dict) and isinstance(data.get("kind"), str) \
                    else r["error"]["code"].text
            else:
                outcome = "ok"
            self.file_outcomes[(method, outcome)] = self.file_outcomes.get((method, outcome), 0) + 1
        if "error" in r and r["error"]["code"].text == "-32603" and kind != "request:test/fail":
            self.internal_errors.append(f"{kind} id {dumps(r['id'])[:40]}: {raw[:300]!r}")

    def replay(self, unit, extra_args):
        """Runs one unit alone in a fresh engine; returns the problem text or None."""
        engine = Engine(self.command, extra_args)
        try:
            _, slots = expectations(unit, self.cap_of(extra_args))
        except Skip:
            slots = []
        engine.send(unit)
        problem = self.collect(engine, slots, time.monotonic() + 60)
        code = engine.close()
        extra = engine.surplus_lines()
        if extra:
            problem = (problem + "; " if problem else "") + f"surplus output {extra}"
        if code != 0:
            problem = (problem + "; " if problem else "") + f"exit code {code}"
        return problem

    @staticmethod
    def cap_of(extra_args):
        if "--max-message-bytes" in extra_args:
            return int(extra_args[list(extra_args).index("--max-message-bytes") + 1])
        return DEFAULT_CAP

    def session(self, name, extra_args, units_fn, seconds, rng):
        """Drives one engine: sends generated units in windows and checks each window."""
        cap = self.cap_of(extra_args)
        engine = Engine(self.command, extra_args)
        end = time.monotonic() + seconds
        window = []
        for kind, unit in units_fn(end):
            try:
                lines, slots = expectations(unit, cap)
            except Skip:
                self.skipped += 1
                continue
            self.kinds[kind] = self.kinds.get(kind, 0) + len(lines)
            for slot in slots:
                due = "batch" if slot[0] == "batch" else slot[2].split(":")[0]
                self.due[due] = self.due.get(due, 0) + 1
            self.due["no answer"] = self.due.get("no answer", 0) + len(lines) - len(slots)
            window.append((unit, lines, slots))
            if not engine.send(unit, rng):
                break
            big = len(unit) > 1 << 20
            if len(window) >= self.args.window or big or rng.random() < 0.1:
                self.check_window(engine, window, extra_args, 120 if big else 30)
                window = []
                if engine.proc.poll() is not None:
                    self.max_rss_kb[name] = max(self.max_rss_kb.get(name, 0), engine.max_rss_kb)
                    engine = Engine(self.command, extra_args)  # keep fuzzing after a death
        if window:
            self.check_window(engine, window, extra_args, 30)
        code = engine.close()
        self.internal_logs += engine.internal_logs
        leftovers = engine.surplus_lines()
        if leftovers:
            self.fail(f"[{name}] surplus output lines at the end: {leftovers[:5]}")
            self.failed += 1
        if engine.trailing:
            self.fail(f"[{name}] stdout ended inside a line: {engine.trailing[:200]!r}")
            self.failed += 1
        if code != 0:
            self.fail(f"[{name}] engine exit code {code} at end of input (expected 0); stderr {engine.stderr_tail[-600:]!r}")
            self.failed += 1
        self.max_rss_kb[name] = max(self.max_rss_kb.get(name, 0), engine.max_rss_kb)

    def check_window(self, engine, window, extra_args, timeout):
        slots = [s for _, _, ss in window for s in ss]
        began = time.monotonic()
        problem = self.collect(engine, slots, began + timeout)
        took = time.monotonic() - began
        if took > self.slowest[0]:
            self.slowest = (took, [unit[:80] for unit, _, _ in window])
        if self.args.v and took > 1:
            print(f"slow window: {took:.1f} s for {[unit[:60] for unit, _, _ in window]}", flush=True)
        nlines = sum(len(lines) for _, lines, _ in window)
        if problem is None:
            self.passed += nlines
            return
        # Name the guilty unit(s) by replaying each one alone.
        guilty = []
        for unit, lines, _ in window:
            p = self.replay(unit, extra_args)
            if p:
                guilty.append((unit, lines, p))
        if guilty:
            for unit, lines, p in guilty:
                self.fail(p, unit)
                self.failed += len(lines)
            self.passed += nlines - sum(len(lines) for _, lines, _ in guilty)
        else:
            self.fail(f"window of {len(window)} units failed but no unit fails alone: {problem}")
            self.failed += nlines
        # Resynchronise: drop whatever else this window still produces.
        time.sleep(0.5)
        while True:
            try:
                if engine.lines.get_nowait() is None:
                    break
            except queue.Empty:
                break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "stol-engine"))
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--vectors", default=os.path.join(ROOT, "protocol", "conformance", "vectors"))
    ap.add_argument("--window", type=int, default=16, help="lines sent before their answers are checked")
    ap.add_argument("--max-rss-mb", type=int, default=1024, help="fail if the engine's peak RSS exceeds this")
    ap.add_argument("--no-big", action="store_true", help="skip the 50 MB line cases")
    ap.add_argument("--mode", choices=["jsonrpc", "mcp"], default="jsonrpc", help="serve mode, or stol-engine mcp")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    global MODE
    MODE = args.mode
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    rng = random.Random(args.seed)
    seeds = load_seeds(args.vectors)
    started = time.monotonic()
    fixtures = Fixtures(args.engine)
    gen = Generator(rng, seeds, fixtures)
    run = Run(args, fixtures.args())
    print(f"stdio_fuzz: seed {args.seed}, {args.seconds:g} s, engine {args.engine}, {len(seeds)} seed lines, "
          f"fixtures in {time.monotonic() - started:.1f} s", flush=True)

    big_request = b'{"jsonrpc":"2.0","id":"big-50MB","method":"ping","params":{"pad":"' + b"x" * (50 << 20) + b'"}}\n'

    def fuzz_units(end):
        if not args.no_big:
            yield "50MB line under the cap", big_request
        while time.monotonic() < end:
            yield gen.next()

    def capped_units(end):
        if not args.no_big:
            yield "50MB line over the cap", big_request
        while time.monotonic() < end:
            kind, unit = gen.next()
            yield kind, unit

    capped_share = max(2.0, args.seconds * 0.15)
    try:
        run.session("default cap (64 MiB)", [], fuzz_units, args.seconds - capped_share, rng)
        run.session("--max-message-bytes 1000000", ["--max-message-bytes", "1000000"], capped_units, capped_share, rng)
    finally:
        fixtures.close()

    for name, kb in run.max_rss_kb.items():
        if kb > args.max_rss_mb * 1024:
            run.fail(f"[{name}] peak RSS {kb // 1024} MB is over the {args.max_rss_mb} MB ceiling")
            run.failed += 1
    elapsed = time.monotonic() - started
    print(f"inputs by kind (lines): {dict(sorted(run.kinds.items()))}")
    print(f"answers due (lines): {dict(sorted(run.due.items()))}")
    print(f"responses checked: {run.responses}, server notifications seen: {run.notifications}, "
          f"generated lines skipped (exit/shutdown/parent pid/long sleeps): {run.skipped}")
    outcomes = {}
    for (m, o), n in sorted(run.file_outcomes.items()):
        outcomes.setdefault(m, []).append(f"{o} {n}")
    print(f"database/media/storage/diagnostics/about answers ({gen.real_imports} real imports sent): "
          + "; ".join(f"{m}: {', '.join(v)}" for m, v in outcomes.items()))
    print("peak RSS: " + ", ".join(f"{n}: {kb / 1024:.0f} MB" for n, kb in run.max_rss_kb.items()))
    if run.internal_errors:
        print(f"note: {len(run.internal_errors)} -32603 internal error(s) from real methods, e.g. {run.internal_errors[:3]}; "
              f"engine log: {run.internal_logs[:3]}")
    print(f"slowest window: {run.slowest[0]:.1f} s")
    print(f"time {elapsed:.1f} s, seed {args.seed}")
    print(f"{run.passed} passed, {run.failed} failed")
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
