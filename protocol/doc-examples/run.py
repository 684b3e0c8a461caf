#!/usr/bin/env python3
"""Runs every request and response example of the project's documents against the real engine.

    python3 protocol/doc-examples/run.py --engine .build/debug/stol-engine [--filter TEXT] [-v] [--list]

Standard library only (Python 3.10+). Exit code 0 when every example answers as its document says,
1 when one does not (or an example cannot be read), each failure naming the document, the line, the
place in the answer, what the document says and what the engine sent.

Documents: README.md, protocol/README.md and protocol/MCP.md.

What counts as an example
-------------------------
- A fenced code block with lines that start with `→ ` (a message sent to the engine) and `← ` (a
  message the engine sends). Every `←` line after a `→` line, up to the next `→`, belongs to that
  request: the notifications the engine sends before answering it, in order, then its answer. A
  `→` line without an `id` is a notification: it gets no answer.
- In README.md, a shell block with `$ echo '<request>' | …stol-engine` or `$ stol-engine <<'EOF'`
  (requests up to `EOF`), followed by the lines the engine prints (matched to requests by `id`).

Each block runs in an engine of its own, started with a fresh, empty data directory (`mcp` mode for
protocol/MCP.md), its requests sent one at a time: each is sent once the previous one is answered.
So an example that needs state (favourites, an import) makes that state itself, earlier in its block.
Nothing else counts: prose, tables and code in other languages are not run.

Elisions: `…` (U+2026)
----------------------
An answer line is JSON in which `…` stands for what the document leaves out:
- `{…, "a": 1}`: `…` in place of an object member: the object may have other members. Without it,
  the object must have exactly the members written. `{…}` is any object.
- `[{…}, …]`: `…` as an array element: any number of elements (none included) at that place; the
  elements written must match, in order. `[…]` is any array.
- `"czox…"`: `…` inside a string: any text (none included) at that place: `"…"` is any string,
  `"Invalid params: id: …"` one that starts with that text. Write `\\u2026` for a real `…`.
- `0.0078…`: a number followed by `…` is any number (the one written is only an illustration:
  timings, sizes on disk).
- `…` as a value (`"dataset": …`) is any value.
- Three dots `...` are refused: write `…`.
Everything else is compared exactly: members in any order, arrays in order, numbers by value.
`$/progress` `report` notifications may be coalesced by the engine (protocol/README.md, Progress),
so one written in a document is checked only when the engine sent a report with the same
`message`, and reports the document does not show are allowed; every other notification must come
as written.

Set-up the harness provides
---------------------------
- A path `/home/u/NAME` in a request stands for a file the harness makes in a scratch folder (and
  the scratch folder's path in answers reads as `/home/u` again). It knows:
  - `animals.stol`: the animal files of `dataset/default` (`00-lineage.taxa`, `1*.taxa`) built with
    `build-db --name Animals --dataset-version 2026.1` and packed with a key made for the run;
  - `big-cats.stolmedia`: a media pack `big-cats` ("Big cats", version 2026.1) of three 8 x 8 PNG
    drawings (credit "Drawing: C. Person", CC0 1.0): the genus Panthera, the lion and the jaguar.
  Blocks that use one start the engine with `--trusted-key` for that key.
- Blocks whose examples cannot run are listed in `SKIPPED` below, each with its reason; a listed
  block that no longer exists fails the run, so the list stays short and true.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOCUMENTS = ["README.md", "protocol/README.md", "protocol/MCP.md"]
ELLIPSIS = "\u2026"
HOME = "/home/u/"
ANSWER_TIMEOUT = 60.0

# Blocks that are not run: (document, text the block holds, why).
SKIPPED: list[tuple[str, str, str]] = []


# --------------------------------------------------------------------------------------------
# Expected answers: JSON with elisions
# --------------------------------------------------------------------------------------------


class DocumentError(Exception):
    """An example the harness cannot read."""


class Any_:
    """`…` as a value."""

    def __repr__(self):
        return ELLIPSIS


ANY = Any_()
SPREAD = object()  # `…` as an array element


@dataclass
class ObjectPattern:
    members: dict
    open: bool  # `…` among the members


@dataclass
class StringPattern:
    parts: list  # str pieces and ANY

    def regex(self):
        return re.compile("".join(".*" if p is ANY else re.escape(p) for p in self.parts), re.DOTALL)

    def text(self):
        return "".join(ELLIPSIS if p is ANY else p for p in self.parts)


@dataclass
class NumberPattern:
    value: Decimal | None  # None: any number
    text: str


class PatternParser:
    """Parses one expected message: JSON plus `…` elisions (see the module's docstring)."""

    NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")

    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def fail(self, what: str):
        raise DocumentError(f"{what} at column {self.i + 1}: …{self.s[max(0, self.i - 20):self.i + 20]}…")

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \t\r\n":
            self.i += 1

    def peek(self):
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def expect(self, c: str):
        if self.peek() != c:
            self.fail(f"expected {c!r}")
        self.i += 1

    def parse(self):
        if "..." in self.s:
            i = self.s.index("...")
            raise DocumentError(f"three dots at column {i + 1}: write … (U+2026) for an elision")
        value = self.value()
        self.ws()
        if self.i != len(self.s):
            self.fail("text after the message")
        return value

    def value(self):
        c = self.peek()
        if c == "{":
            return self.object()
        if c == "[":
            return self.array()
        if c == '"':
            return self.string()
        if c == ELLIPSIS:
            self.i += 1
            return ANY
        for word, v in (("true", True), ("false", False), ("null", None)):
            if self.s.startswith(word, self.i):
                self.i += len(word)
                return v
        m = self.NUMBER.match(self.s, self.i)
        if not m:
            self.fail("expected a value")
        self.i = m.end()
        if self.s.startswith(ELLIPSIS, self.i):
            self.i += 1
            return NumberPattern(None, m.group(0) + ELLIPSIS)
        return NumberPattern(Decimal(m.group(0)), m.group(0))

    def object(self):
        self.expect("{")
        members, open_ = {}, False
        if self.peek() == "}":
            self.i += 1
            return ObjectPattern(members, open_)
        while True:
            if self.peek() == ELLIPSIS:
                self.i += 1
                open_ = True
            else:
                key = self.string()
                if not isinstance(key, str):
                    self.fail("an elided member name")
                self.expect(":")
                if key in members:
                    self.fail(f"duplicate member {key!r}")
                members[key] = self.value()
            c = self.peek()
            self.i += 1
            if c == "}":
                return ObjectPattern(members, open_)
            if c != ",":
                self.i -= 1
                self.fail("expected ',' or '}'")

    def array(self):
        self.expect("[")
        items = []
        if self.peek() == "]":
            self.i += 1
            return items
        while True:
            if self.peek() == ELLIPSIS:
                self.i += 1
                items.append(SPREAD)
            else:
                items.append(self.value())
            c = self.peek()
            self.i += 1
            if c == "]":
                return items
            if c != ",":
                self.i -= 1
                self.fail("expected ',' or ']'")

    def string(self):
        self.expect('"')
        parts, buf = [], []
        escapes = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated string")
            c = self.s[self.i]
            self.i += 1
            if c == '"':
                break
            if c == ELLIPSIS:
                if buf:
                    parts.append("".join(buf))
                    buf = []
                parts.append(ANY)
            elif c == "\\":
                e = self.s[self.i] if self.i < len(self.s) else ""
                self.i += 1
                if e in escapes:
                    buf.append(escapes[e])
                elif e == "u":
                    code = int(self.s[self.i:self.i + 4], 16)
                    self.i += 4
                    if 0xD800 <= code < 0xDC00 and self.s.startswith("\\u", self.i):
                        low = int(self.s[self.i + 2:self.i + 6], 16)
                        self.i += 6
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    buf.append(chr(code))
                else:
                    self.fail("bad escape")
            else:
                buf.append(c)
        if buf:
            parts.append("".join(buf))
        if all(isinstance(p, str) for p in parts):
            return "".join(parts)
        return StringPattern(parts)


def parse_pattern(text: str):
    return PatternParser(text).parse()


def show_pattern(p) -> str:
    if p is ANY or p is SPREAD:
        return ELLIPSIS
    if isinstance(p, ObjectPattern):
        inner = [json.dumps(k, ensure_ascii=False) + ":" + show_pattern(v) for k, v in p.members.items()]
        return "{" + ",".join(inner + ([ELLIPSIS] if p.open else [])) + "}"
    if isinstance(p, list):
        return "[" + ",".join(show_pattern(v) for v in p) + "]"
    if isinstance(p, StringPattern):
        return json.dumps(p.text(), ensure_ascii=False)
    if isinstance(p, NumberPattern):
        return p.text
    return json.dumps(p, ensure_ascii=False)


def show(v, limit=160) -> str:
    text = json.dumps(v, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def type_name(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, Decimal)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    return "an object"


def mismatches(p, v, path: str) -> list[str]:
    """Where `v` (an answer, parsed) differs from the pattern `p`; empty when it matches."""
    where = path or "(the message)"
    if p is ANY:
        return []
    if isinstance(p, ObjectPattern):
        if not isinstance(v, dict):
            return [f"{where}: expected an object, got {type_name(v)} {show(v)}"]
        out = []
        for key, sub in p.members.items():
            if key not in v:
                out.append(f"{path}.{key}: missing (the document says {show_pattern(sub)[:120]})")
            else:
                out += mismatches(sub, v[key], f"{path}.{key}" if path else key)
        if not p.open:
            for key in v:
                if key not in p.members:
                    out.append(f"{path}.{key}: the engine sends it ({show(v[key], 80)}); the document does not "
                               f"(add it, or … among the members to leave the others out)")
        return out
    if isinstance(p, list):
        if not isinstance(v, list):
            return [f"{where}: expected an array, got {type_name(v)} {show(v)}"]
        return array_mismatches(p, v, path)
    if isinstance(p, StringPattern):
        if not isinstance(v, str):
            return [f"{where}: expected a string like {show_pattern(p)}, got {type_name(v)} {show(v)}"]
        return [] if p.regex().fullmatch(v) else [f"{where}: expected {show_pattern(p)}, got {show(v)}"]
    if isinstance(p, NumberPattern):
        if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
            return [f"{where}: expected a number ({p.text}), got {type_name(v)} {show(v)}"]
        if p.value is None or Decimal(v) == p.value:
            return []
        return [f"{where}: expected {p.text}, got {v}"]
    if isinstance(p, str):
        return [] if v == p else [f"{where}: expected {show(p)}, got {show(v)}"]
    if p is None or isinstance(p, bool):
        return [] if (v is p) else [f"{where}: expected {json.dumps(p)}, got {show(v)}"]
    raise AssertionError(p)


def array_mismatches(p: list, v: list, path: str) -> list[str]:
    if SPREAD not in p:
        if len(p) != len(v):
            first = []
            for i, (sub, item) in enumerate(zip(p, v)):
                first = mismatches(sub, item, f"{path}[{i}]")
                if first:
                    break
            return [f"{path}: the document has {len(p)} elements, the engine sent {len(v)} "
                    f"(write … in the array to leave some out)"] + first[:1]
        out = []
        for i, (sub, item) in enumerate(zip(p, v)):
            out += mismatches(sub, item, f"{path}[{i}]")
        return out
    # With spreads: find any alignment; report the one that gets furthest.
    best: list[str] = []
    best_reached = -1

    def align(pi: int, vi: int) -> bool:
        nonlocal best, best_reached
        if pi == len(p):
            if vi == len(v):
                return True
            if pi > best_reached:
                best_reached, best = pi, [f"{path}: {len(v) - vi} element(s) after the last one the document shows, and no … there"]
            return False
        if p[pi] is SPREAD:
            if any(align(pi + 1, k) for k in range(vi, len(v) + 1)):
                return True
            following = p[pi + 1] if pi + 1 < len(p) else SPREAD
            if following is not SPREAD and not any(not mismatches(following, v[k], "") for k in range(vi, len(v))):
                if pi + 1 >= best_reached:
                    best_reached, best = pi + 1, [f"{path}: no element from [{vi}] on matches {show_pattern(following)[:160]}"]
            return False
        if vi == len(v):
            if pi > best_reached:
                best_reached, best = pi, [f"{path}: the engine sent {len(v)} elements; the document expects "
                                          f"{show_pattern(p[pi])[:100]} after them"]
            return False
        problems = mismatches(p[pi], v[vi], f"{path}[{vi}]")
        if problems:
            if pi > best_reached:
                best_reached, best = pi, problems
            return False
        return align(pi + 1, vi + 1)

    return [] if align(0, 0) else (best or [f"{path}: does not match {show_pattern(p)[:120]}"])


def loads_answer(text: str):
    return json.loads(text, parse_float=Decimal, parse_int=int)


# --------------------------------------------------------------------------------------------
# Reading the documents
# --------------------------------------------------------------------------------------------


@dataclass
class Line:
    number: int
    text: str


@dataclass
class Step:
    """One message sent, and what the document says comes back before the next one."""

    request: Line
    expected: list[Line] = field(default_factory=list)


@dataclass
class Block:
    document: str
    first_line: int
    steps: list[Step]
    text: str
    mode: str  # "serve" or "mcp"
    orphans: list[Line] = field(default_factory=list)  # `←` lines before any `→`

    @property
    def name(self) -> str:
        return f"{self.document}:{self.first_line}"


def fenced_blocks(lines: list[str]):
    """(first line number, info string, [Line]) of each fenced code block."""
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(.*)$", lines[i])
        if not m:
            i += 1
            continue
        info, body, start = m.group(2).strip(), [], i + 1
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(Line(i + 1, lines[i]))
            i += 1
        i += 1
        yield start, info, body


def transcript_block(document: str, start: int, body: list[Line], mode: str) -> Block | None:
    if not any(l.text.startswith(("→ ", "← ")) for l in body):
        return None
    steps: list[Step] = []
    orphans: list[Line] = []
    for line in body:
        if line.text.startswith("→ "):
            steps.append(Step(Line(line.number, line.text[2:].strip())))
        elif line.text.startswith("← "):
            (steps[-1].expected if steps else orphans).append(Line(line.number, line.text[2:].strip()))
    return Block(document, start, steps, "\n".join(l.text for l in body), mode, orphans)


def shell_blocks(document: str, start: int, body: list[Line]) -> list[Block]:
    """`$ echo '…' | stol-engine` and `$ stol-engine <<'EOF'` examples with their output."""
    out: list[Block] = []
    i = 0
    while i < len(body):
        line = body[i]
        if not line.text.startswith("$ ") or "stol-engine" not in line.text:
            i += 1
            continue
        command = line.text[2:]
        requests: list[Line] = []
        m = re.match(r"^echo '(.*)' \| \S*stol-engine$", command)
        if m:
            requests.append(Line(line.number, m.group(1)))
            i += 1
        elif re.match(r"^\S*stol-engine <<'EOF'$", command):
            i += 1
            while i < len(body) and body[i].text != "EOF":
                requests.append(body[i])
                i += 1
            i += 1
        else:
            raise DocumentError(f"{document}:{line.number}: a shell example the harness cannot run: {command}")
        outputs: list[Line] = []
        while i < len(body) and not body[i].text.startswith("$ "):
            if body[i].text.strip():
                outputs.append(body[i])
            i += 1
        # Answers are matched to requests by id (they may come in any order).
        steps = [Step(r) for r in requests]
        by_id = {}
        for step in steps:
            try:
                by_id[json.dumps(json.loads(step.request.text).get("id"))] = step
            except (ValueError, AttributeError) as e:
                raise DocumentError(f"{document}:{step.request.number}: the request is not JSON: {e}")
        for o in outputs:
            m = re.search(r'"id":\s*(-?\d+|"[^"]*"|null)', o.text)
            step = by_id.get(m.group(1) if m else None)
            if step is None:
                raise DocumentError(f"{document}:{o.number}: an output line that answers no request of the example")
            step.expected.append(o)
        out.append(Block(document, line.number, steps, "\n".join(l.text for l in body), "serve"))
    return out


def read_blocks(documents: list[str]) -> list[Block]:
    blocks: list[Block] = []
    for document in documents:
        lines = (ROOT / document).read_text(encoding="utf-8").split("\n")
        mode = "mcp" if document.endswith("MCP.md") else "serve"
        for start, info, body in fenced_blocks(lines):
            if info in ("sh", "shell", "bash", "console"):
                blocks += shell_blocks(document, start, body)
            elif info in ("", "json", "jsonl", "text"):
                block = transcript_block(document, start, body, mode)
                if block:
                    blocks.append(block)
    return blocks


# --------------------------------------------------------------------------------------------
# Set-up: files the examples import
# --------------------------------------------------------------------------------------------


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


class Fixtures:
    """The files behind `/home/u/NAME`, made once per run on first use."""

    def __init__(self, engine: str, scratch: Path):
        self.engine = engine
        self.home = scratch / "home-u"
        self.home.mkdir(parents=True)
        self.work = scratch / "fixture-work"
        self.work.mkdir()
        self._key: tuple[Path, str] | None = None
        self.lock = threading.Lock()

    def run(self, *args: str):
        done = subprocess.run([self.engine, *args], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"set-up failed: stol-engine {' '.join(args)}: {done.stderr.strip()[-800:]}")
        return done.stdout

    def key(self) -> tuple[Path, str]:
        if self._key is None:
            path = self.work / "release.key"
            self._key = (path, self.run("keygen", "--out", str(path)).strip().split()[-1])
        return self._key

    def make(self, name: str) -> Path:
        with self.lock:
            target = self.home / name
            if target.exists():
                return target
            maker = {"animals.stol": self.animals, "big-cats.stolmedia": self.big_cats}.get(name)
            if maker is None:
                raise DocumentError(f"no set-up for {HOME}{name} (the harness makes: animals.stol, big-cats.stolmedia)")
            maker(target)
            return target

    def animals(self, target: Path):
        source = self.work / "animals"
        source.mkdir()
        for f in sorted((ROOT / "dataset" / "default").iterdir()):
            if f.name == "00-lineage.taxa" or (f.name.startswith("1") and f.suffix == ".taxa"):
                shutil.copy(f, source / f.name)
        db = self.work / "animals.sqlite"
        self.run("build-db", "--taxa", str(source), "--name", "Animals", "--dataset-version", "2026.1",
                 "--license", "CC0 1.0", "--build-date", "2026-01-15", "--quiet", "--out", str(db))
        self.run("pack", "--db", str(db), "--key", str(self.key()[0]), "--out", str(target))

    def big_cats(self, target: Path):
        images = self.work / "big-cats"
        images.mkdir()
        ids = self.taxon_ids(["Panthera", "Panthera leo", "Panthera onca"])
        rows = []
        for (name, taxon), colour in zip(ids.items(), [(200, 160, 60), (220, 180, 90), (120, 90, 40)]):
            file = name.replace(" ", "-").lower() + ".png"
            (images / file).write_bytes(png(8, 8, colour))
            rows.append(f"{file},{taxon},Drawing: C. Person,CC0 1.0")
        manifest = self.work / "big-cats.csv"
        manifest.write_text("file,taxonId,credit,license\n" + "\n".join(rows) + "\n")
        self.run("pack-media", "--images", str(images), "--manifest", str(manifest), "--id", "big-cats",
                 "--name", "Big cats", "--pack-version", "2026.1", "--key", str(self.key()[0]), "--out", str(target))

    def taxon_ids(self, names: list[str]) -> dict[str, int]:
        """Ids in the embedded database, by scientific name, through the engine itself."""
        requests = "".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "search/query",
                                       "params": {"query": n, "limit": 5}}) + "\n" for i, n in enumerate(names))
        data = self.work / "lookup-data"
        done = subprocess.run([self.engine, "--data-dir", str(data)], input=requests, capture_output=True, text=True, timeout=60)
        found = {}
        for line in done.stdout.splitlines():
            answer = json.loads(line)
            name = names[answer["id"]]
            found[name] = next(r["id"] for r in answer["result"]["results"] if r["scientificName"] == name)
        return {n: found[n] for n in names}


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


class Engine:
    """One engine process over pipes; messages are read on a thread as they come."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.stderr = bytearray()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            self.messages.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.messages.put(None)

    def _drain(self):
        for chunk in iter(lambda: self.process.stderr.read(4096), b""):
            self.stderr += chunk

    def send(self, text: str):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def next(self, deadline: float) -> str | None:
        try:
            return self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None

    def stop(self) -> list[str]:
        """Closes stdin, waits for the exit, and returns what came out meanwhile."""
        rest = []
        try:
            self.process.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + 15
        while True:
            line = self.next(deadline)
            if line is None:
                break
            rest.append(line)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return rest

    def stderr_tail(self) -> str:
        return self.stderr.decode("utf-8", "replace").strip()[-600:]


@dataclass
class Failure:
    line: int
    what: str
    problems: list[str]
    document_text: str = ""
    engine_text: str = ""


def is_report(message) -> bool:
    return (isinstance(message, dict) and message.get("method") == "$/progress"
            and isinstance(message.get("params"), dict) and isinstance(message["params"].get("value"), dict)
            and message["params"]["value"].get("kind") == "report")


def pattern_is_report(p) -> bool:
    try:
        return (p.members["method"] == "$/progress" and p.members["params"].members["value"].members["kind"] == "report")
    except (AttributeError, KeyError, TypeError):
        return False


def report_message(p):
    try:
        return p.members["params"].members["value"].members.get("message")
    except (AttributeError, KeyError):
        return None


def run_block(block: Block, engine_path: str, fixtures: Fixtures, verbose: bool) -> list[Failure]:
    failures: list[Failure] = []
    if block.orphans:
        return [Failure(block.orphans[0].number, "an answer", ["a ← line before any → line: which request does it answer?"])]
    uses = sorted({m for s in block.steps for m in re.findall(re.escape(HOME) + r"([^\"\s]+)", s.request.text)})
    arguments = []
    if uses:
        for name in uses:
            fixtures.make(name)
        arguments = ["--trusted-key", fixtures.key()[1]]
    data = Path(tempfile.mkdtemp(prefix="stol-doc-data-"))
    home = str(fixtures.home) + "/"
    command = [engine_path] + (["mcp"] if block.mode == "mcp" else []) + ["--data-dir", str(data)] + arguments
    engine = Engine(command)
    try:
        for step in block.steps:
            text = step.request.text.replace(HOME, home)
            try:
                request = json.loads(text)
            except ValueError as e:
                failures.append(Failure(step.request.number, "the request", [f"not JSON: {e}"]))
                break
            if not isinstance(request, dict):
                failures.append(Failure(step.request.number, "the request", ["a batch: the harness runs one request per → line"]))
                break
            method = request.get("method", "?")
            what = f"{method} (id {request.get('id')})" if "id" in request else method
            expected = []
            try:
                for line in step.expected:
                    expected.append((line, parse_pattern(line.text)))
            except DocumentError as e:
                failures.append(Failure(line.number, what, [f"cannot read the expected message: {e}"]))
                break
            engine.send(text)
            if "id" not in request:
                continue  # a notification: nothing comes back for it
            got: list = []
            deadline = time.monotonic() + ANSWER_TIMEOUT
            answer = None
            while answer is None:
                raw = engine.next(deadline)
                if raw is None:
                    failures.append(Failure(step.request.number, what, [
                        f"no answer within {ANSWER_TIMEOUT:.0f} s" if engine.process.poll() is None
                        else f"the engine exited ({engine.process.poll()}) without answering",
                        f"stderr: {engine.stderr_tail()}"]))
                    return failures
                raw = raw.replace(home, HOME)
                try:
                    message = loads_answer(raw)
                except ValueError as e:
                    failures.append(Failure(step.request.number, what, [f"the engine sent a line that is not JSON ({e}): {raw[:200]}"]))
                    return failures
                got.append((raw, message))
                if isinstance(message, dict) and message.get("id") == request["id"] and ("result" in message or "error" in message):
                    answer = message
            failures += compare_step(step, what, expected, got, verbose)
        rest = engine.stop()
        for raw in rest:
            try:
                message = loads_answer(raw.replace(home, HOME))
            except ValueError:
                message = raw
            if not is_report(message):
                failures.append(Failure(block.steps[-1].request.number if block.steps else block.first_line,
                                        "the end of the example", [f"the engine sent more than the document shows: {raw[:200]}"]))
    finally:
        if engine.process.poll() is None:
            engine.process.kill()
        shutil.rmtree(data, ignore_errors=True)
    return failures


def compare_step(step: Step, what: str, expected: list, got: list, verbose: bool) -> list[Failure]:
    failures: list[Failure] = []
    answer_raw, answer = got[-1]
    notifications = got[:-1]
    answers = [(l, p) for l, p in expected if isinstance(p, ObjectPattern) and "id" in p.members]
    notes = [(l, p) for l, p in expected if (l, p) not in answers]
    if not answers:
        failures.append(Failure(step.request.number, what, ["the document shows no answer to this request"], "", answer_raw))
    else:
        line, pattern = answers[-1]
        problems = mismatches(pattern, answer, "")
        if problems:
            failures.append(Failure(line.number, what, problems, line.text, answer_raw))
        if len(answers) > 1:
            failures.append(Failure(answers[0][0].number, what, ["the document shows two answers to this request"]))
    # Notifications: in order; reports may be missing (coalesced) or extra.
    position = 0
    for line, pattern in notes:
        found = None
        for k in range(position, len(notifications)):
            raw, message = notifications[k]
            if not mismatches(pattern, message, ""):
                found = k
                break
            if not is_report(message):
                break
        if found is not None:
            position = found + 1
            continue
        if pattern_is_report(pattern) and not any(
                is_report(m) and m["params"]["value"].get("message") == report_message(pattern) for _, m in notifications):
            if verbose:
                print(f"    note {line.number}: no report {report_message(pattern)!r} came (reports may be coalesced)")
            continue
        # The closest candidate: the next notification of the same method (a report with the same
        # message for reports); it is used up, so one difference is reported once.
        method = pattern.members.get("method") if isinstance(pattern, ObjectPattern) else None
        candidate = None
        for k in range(position, len(notifications)):
            raw, message = notifications[k]
            same = isinstance(message, dict) and message.get("method") == method
            if same and pattern_is_report(pattern):
                same = is_report(message) and message["params"]["value"].get("message") == report_message(pattern)
            if same:
                candidate = k
                break
            if not is_report(message):
                break
        if candidate is None:
            failures.append(Failure(line.number, what, ["the engine did not send this notification here"], line.text,
                                    notifications[position][0] if position < len(notifications) else ""))
            continue
        raw, message = notifications[candidate]
        failures.append(Failure(line.number, what, mismatches(pattern, message, ""), line.text, raw))
        position = candidate + 1
    for raw, message in notifications[position:]:
        if not is_report(message):
            failures.append(Failure(step.request.number, what, [f"the engine sent a notification the document does not show: {raw[:200]}"]))
    return failures


def skip_reason(block: Block) -> str | None:
    for document, marker, reason in SKIPPED:
        if block.document == document and marker in block.text:
            return reason
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", default=str(ROOT / ".build" / "debug" / "stol-engine"))
    parser.add_argument("--filter", action="append", default=[], help="run only blocks whose DOCUMENT:LINE contains this text")
    parser.add_argument("--list", action="store_true", help="list the examples and exit")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    try:
        blocks = read_blocks(DOCUMENTS)
    except DocumentError as e:
        print(f"FAIL {e}")
        return 1
    failed = 0
    for document, marker, reason in SKIPPED:
        if not any(b.document == document and marker in b.text for b in blocks):
            print(f"FAIL {document}: SKIPPED lists a block holding {marker!r}, and there is none: update the list")
            failed += 1
    if args.filter:
        blocks = [b for b in blocks if any(f.lower() in b.name.lower() for f in args.filter)]
    if args.list:
        for b in blocks:
            reason = skip_reason(b)
            print(f"{b.name}  {len(b.steps)} request(s){'  SKIPPED: ' + reason if reason else ''}")
        return 0
    engine = os.path.abspath(args.engine)
    if not os.access(engine, os.X_OK):
        print(f"FAIL no engine at {engine} (build it, or pass --engine)")
        return 1
    scratch = Path(tempfile.mkdtemp(prefix="stol-doc-examples-"))
    passed = skipped = 0
    try:
        fixtures = Fixtures(engine, scratch)
        for block in blocks:
            reason = skip_reason(block)
            if reason:
                skipped += 1
                if args.verbose:
                    print(f"SKIP {block.name}: {reason}")
                continue
            started = time.monotonic()
            try:
                failures = run_block(block, engine, fixtures, args.verbose)
            except (DocumentError, RuntimeError) as e:
                failures = [Failure(block.first_line, "set-up", [str(e)])]
            if failures:
                failed += 1
                print(f"FAIL {block.name} ({len(block.steps)} request(s))")
                for f in failures:
                    print(f"  {block.document}:{f.line} {f.what}:")
                    for p in f.problems[:8]:
                        print(f"      {p}")
                    if len(f.problems) > 8:
                        print(f"      … and {len(f.problems) - 8} more")
                    if f.document_text:
                        print(f"    document: {f.document_text[:400]}")
                    if f.engine_text:
                        print(f"    engine:   {f.engine_text[:400]}")
            else:
                passed += 1
                if args.verbose:
                    print(f"PASS {block.name} ({len(block.steps)} request(s), {time.monotonic() - started:.1f} s)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped (listed in SKIPPED with their reasons)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
