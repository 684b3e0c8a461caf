#!/usr/bin/env python3
"""JSON-RPC 2.0 conformance runner for stol-engine (and any engine speaking the same protocol).

Usage:
    python3 protocol/conformance/run.py [--vectors DIR] [--filter NAME] [-v] -- ENGINE_COMMAND [ARGS...]

Standard library only (Python 3.10+). See README.md beside this file for the vector format and
the comparison rules.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path

DEFAULT_TIMEOUT = 20.0
CONFORMANCE_FLAG = "--conformance-methods"

# --------------------------------------------------------------------------------------------
# JSON values that keep the source text of numbers: the tools' shared strict JSON
# --------------------------------------------------------------------------------------------

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from strict_json import Num, dumps, loads, type_name  # noqa: E402


def short(v, limit=300) -> str:
    s = v if isinstance(v, str) else dumps(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def as_int(v, what: str) -> int:
    if isinstance(v, Num) and v.is_integer_text():
        return int(v.text)
    raise VectorError(f"{what} must be an integer, got {short(v)}")


def as_number(v, what: str) -> float:
    if isinstance(v, Num):
        return float(v.value)
    raise VectorError(f"{what} must be a number, got {short(v)}")


# --------------------------------------------------------------------------------------------
# Schema check of every output line (JSON-RPC 2.0 response / notification)
# --------------------------------------------------------------------------------------------

RESPONSE_KEYS = {"jsonrpc", "id", "result", "error"}
NOTIFICATION_KEYS = {"jsonrpc", "method", "params"}
ERROR_KEYS = {"code", "message", "data"}


def check_raw_line(raw: bytes):
    """Returns (value, problems). Checks framing rules, then parses."""
    problems = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, [f"output line is not valid UTF-8 ({e})"]
    if text.endswith("\r"):
        problems.append("output line ends with CR (lines must end with a bare LF)")
        text = text[:-1]
    if "\u2028" in text or "\u2029" in text:
        problems.append("output line holds a raw U+2028/U+2029 (must be written escaped)")
    if text.strip(" \t") == "":
        return None, problems + ["blank output line"]
    try:
        value = loads(text)
    except (ValueError, RecursionError) as e:
        return None, problems + [f"output line is not valid JSON ({e}): {short(text)}"]
    problems += validate_message(value)
    return value, problems


def validate_message(v) -> list[str]:
    if isinstance(v, list):
        if not v:
            return ["batch response is an empty array"]
        out = []
        for i, e in enumerate(v):
            if not isinstance(e, dict):
                out.append(f"batch element {i} is not an object: {short(e)}")
            elif "method" in e or "id" not in e and "result" not in e and "error" not in e:
                out.append(f"batch element {i} is not a response: {short(e)}")
            else:
                out += [f"batch element {i}: {p}" for p in validate_response(e)]
        return out
    if isinstance(v, dict):
        if "method" in v:
            return validate_notification(v)
        return validate_response(v)
    return [f"output is neither an object nor an array: {short(v)}"]


def _check_jsonrpc(v) -> list[str]:
    if "jsonrpc" not in v:
        return ['missing "jsonrpc"']
    if not isinstance(v["jsonrpc"], str) or v["jsonrpc"] != "2.0":
        return [f'"jsonrpc" must be the string "2.0", got {short(v["jsonrpc"])}']
    return []


def validate_response(v: dict) -> list[str]:
    out = _check_jsonrpc(v)
    extra = set(v) - RESPONSE_KEYS
    if extra:
        out.append(f"response has members other than jsonrpc/id/result/error: {sorted(extra)}")
    if "id" not in v:
        out.append('response has no "id" (it must be present, null when unknown)')
    elif not (v["id"] is None or isinstance(v["id"], (str, Num))):
        out.append(f"response id must be a string, a number or null, got {type_name(v['id'])}")
    has_r, has_e = "result" in v, "error" in v
    if has_r == has_e:
        out.append('response must have exactly one of "result" and "error"')
    if has_e:
        err = v["error"]
        if not isinstance(err, dict):
            out.append(f'"error" must be an object, got {type_name(err)}')
        else:
            extra = set(err) - ERROR_KEYS
            if extra:
                out.append(f"error object has members other than code/message/data: {sorted(extra)}")
            code = err.get("code")
            if not (isinstance(code, Num) and code.is_integer_text()):
                out.append(f"error.code must be an integer, got {short(code) if 'code' in err else 'nothing'}")
            if not isinstance(err.get("message"), str):
                out.append("error.message must be a string")
    return out


def validate_notification(v: dict) -> list[str]:
    out = _check_jsonrpc(v)
    extra = set(v) - NOTIFICATION_KEYS
    if extra:
        out.append(f"notification has members other than jsonrpc/method/params: {sorted(extra)}")
    if not isinstance(v.get("method"), str):
        out.append("notification method must be a string")
    if "params" in v and not isinstance(v["params"], (dict, list)):
        out.append(f"notification params must be an object or an array, got {type_name(v['params'])}")
    return out


# --------------------------------------------------------------------------------------------
# Comparison of expectations with output
# --------------------------------------------------------------------------------------------

TYPE_NAMES = {"null", "boolean", "number", "integer", "string", "array", "object"}


def is_matcher(v) -> bool:
    return isinstance(v, dict) and len(v) == 1 and next(iter(v)).startswith("$")


def match_value(exp, act, path: str, exact_numbers: bool = False):
    """None when `act` satisfies `exp`, else a reason."""
    if is_matcher(exp):
        (op, arg), = exp.items()
        if op == "$any":
            return None
        if op == "$type":
            want = arg if isinstance(arg, list) else [arg]
            got = type_name(act)
            if got in want or ("integer" in want and isinstance(act, Num) and act.is_integer_text()):
                return None
            return f"{path}: expected type {'/'.join(want)}, got {got} {short(act)}"
        if op == "$subset":
            return match_object(arg, act, path, subset=True)
        if op == "$oneOf":
            reasons = [match_value(alt, act, path, exact_numbers) for alt in arg]
            if any(r is None for r in reasons):
                return None
            return f"{path}: matches none of the alternatives ({'; '.join(reasons)})"
        if op == "$repeat":
            if not (isinstance(arg, dict) and isinstance(arg.get("text"), str)):
                raise VectorError("$repeat needs {text, count}")
            want = arg["text"] * as_int(arg.get("count"), "$repeat.count")
            if act == want:
                return None
            return f"{path}: expected {short(arg['text'])} repeated {arg.get('count')} times, got {type_name(act)} of length {len(act) if isinstance(act, (str, list)) else '-'}"
        if op == "$text":
            if isinstance(act, Num) and act.text == arg:
                return None
            return f"{path}: expected number written as {arg}, got {short(act)}"
        raise VectorError(f"unknown matcher {op}")
    if isinstance(exp, Num):
        if not isinstance(act, Num):
            return f"{path}: expected number {exp.text}, got {type_name(act)} {short(act)}"
        if exact_numbers:
            if exp.text != act.text:
                return f"{path}: expected {exp.text} written exactly so, got {act.text}"
        elif exp.value != act.value:  # the same number, however written
            return f"{path}: expected {exp.text}, got {act.text}"
        return None
    if exp is None or isinstance(exp, (bool, str)):
        if type_name(exp) != type_name(act) or exp != act:
            return f"{path}: expected {short(exp)}, got {short(act)}"
        return None
    if isinstance(exp, list):
        if not isinstance(act, list):
            return f"{path}: expected an array, got {type_name(act)} {short(act)}"
        if len(exp) != len(act):
            return f"{path}: expected {len(exp)} elements, got {len(act)}: {short(act)}"
        for i, (e, a) in enumerate(zip(exp, act)):
            r = match_value(e, a, f"{path}[{i}]")
            if r:
                return r
        return None
    if isinstance(exp, dict):
        return match_object(exp, act, path, subset=False)
    raise VectorError(f"bad expectation value {exp!r}")


def match_object(exp: dict, act, path: str, subset: bool):
    if not isinstance(act, dict):
        return f"{path}: expected an object, got {type_name(act)} {short(act)}"
    for k, e in exp.items():
        if k not in act:
            return f"{path}: missing member {k!r}"
        r = match_value(e, act[k], f"{path}.{k}")
        if r:
            return r
    if not subset:
        extra = set(act) - set(exp)
        if extra:
            return f"{path}: unexpected members {sorted(extra)}"
    return None


def match_error(exp, act, path: str):
    if not isinstance(exp, dict) or is_matcher(exp):
        return match_value(exp, act, path)
    if not isinstance(act, dict):
        return f"{path}: expected an error object, got {short(act)}"
    for k, e in exp.items():
        if k == "message":
            continue  # message text is free
        if k not in act:
            return f"{path}: missing member {k!r}"
        if k == "data" and isinstance(e, dict) and not is_matcher(e):
            r = match_object(e, act[k], f"{path}.data", subset=True)
        else:
            r = match_value(e, act[k], f"{path}.{k}")
        if r:
            return r
    extra = set(act) - set(exp) - {"message", "data"}
    if extra:
        return f"{path}: unexpected members {sorted(extra)}"
    return None


def match_single(exp, act, path: str):
    """One JSON-RPC message object (response or notification)."""
    if is_matcher(exp):
        if next(iter(exp)) == "$oneOf":
            reasons = [match_single(alt, act, path) for alt in exp["$oneOf"]]
            if any(r is None for r in reasons):
                return None
            return f"{path}: matches none of the alternatives ({'; '.join(reasons)})"
        return match_value(exp, act, path)
    if not isinstance(exp, dict):
        raise VectorError(f"expected message must be an object: {short(exp)}")
    if not isinstance(act, dict):
        return f"{path}: expected an object, got {type_name(act)} {short(act)}"
    exp = dict(exp)
    exp.setdefault("jsonrpc", "2.0")
    for k, e in exp.items():
        if k not in act:
            return f"{path}: missing member {k!r} (got {short(act)})"
        if k == "id":
            r = match_value(e, act[k], f"{path}.id", exact_numbers=True)
        elif k == "error":
            r = match_error(e, act[k], f"{path}.error")
        else:
            r = match_value(e, act[k], f"{path}.{k}")
        if r:
            return r
    extra = set(act) - set(exp)
    if extra:
        return f"{path}: unexpected members {sorted(extra)} in {short(act)}"
    return None


def match_message(exp, act, path: str = "$"):
    """A message or a batch (array) of messages; batch elements match in any order."""
    if isinstance(exp, list):
        if not isinstance(act, list):
            return f"{path}: expected a batch response (array), got {short(act)}"
        ok, reason = match_multiset(exp, act, lambda e, a: match_single(e, a, path + "[]"))
        return None if ok else f"{path}: batch differs: {reason}"
    if isinstance(act, list):
        return f"{path}: expected a single message, got a batch {short(act)}"
    return match_single(exp, act, path)


def match_multiset(exps: list, acts: list, fn):
    """Finds a one-to-one pairing of expectations and actual values (bipartite matching)."""
    adj = [[j for j, a in enumerate(acts) if fn(e, a) is None] for e in exps]
    owner = [-1] * len(acts)

    def augment(i, seen):
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] == -1 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    matched = sum(1 for i in range(len(exps)) if augment(i, set()))
    if matched == len(exps) == len(acts):
        return True, ""
    got_exp = set(owner) - {-1}
    miss = [exps[i] for i in range(len(exps)) if i not in got_exp]
    extra = [acts[j] for j in range(len(acts)) if owner[j] == -1]
    parts = [f"expected {len(exps)} message(s), got {len(acts)}"]
    if len(miss) == 1 and len(extra) == 1:
        parts.append(fn(miss[0], extra[0]))
    else:
        if miss:
            parts.append("missing: " + " | ".join(short(m, 200) for m in miss))
        if extra:
            parts.append("unexpected: " + " | ".join(short(x, 200) for x in extra))
    return False, "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Progress checks
# --------------------------------------------------------------------------------------------


def same_token(a, b) -> bool:
    if isinstance(a, Num) and isinstance(b, Num):
        return a.text == b.text
    return type_name(a) == type_name(b) and a == b


def check_progress(spec: dict, lines: list) -> tuple[list[str], set[int]]:
    """Checks one progress stream; returns (problems, indices of the lines it accounts for)."""
    token, rid = spec["token"], spec["id"]
    min_reports = as_int(spec.get("minReports", Num("1")), "minReports")
    problems = []
    used = set()
    values = []
    response_at = None
    for idx, v in enumerate(lines):
        if isinstance(v, dict) and v.get("method") == "$/progress":
            p = v.get("params")
            if isinstance(p, dict) and "token" in p and same_token(p["token"], token):
                used.add(idx)
                values.append((idx, p.get("value")))
                if set(p) - {"token", "value"}:
                    problems.append(f"$/progress params has unexpected members {sorted(set(p) - {'token', 'value'})}")
        else:
            for r in v if isinstance(v, list) else [v]:
                if isinstance(r, dict) and "id" in r and "method" not in r and same_token(r["id"], rid):
                    response_at = idx if response_at is None else response_at
    tok = short(token)
    if response_at is None:
        problems.append(f"no response with id {short(rid)} to check progress against")
    if not values:
        return problems + [f"no $/progress notifications for token {tok}"], used
    kinds = [val.get("kind") if isinstance(val, dict) else None for _, val in values]
    if kinds[0] != "begin":
        problems.append(f"token {tok}: first progress is {kinds[0]!r}, not 'begin'")
    if kinds[-1] != "end":
        problems.append(f"token {tok}: last progress is {kinds[-1]!r}, not 'end'")
    if len(values) >= 2 and any(k != "report" for k in kinds[1:-1]):
        problems.append(f"token {tok}: expected begin, report..., end; got {kinds}")
    reports = kinds.count("report")
    if reports < min_reports:
        problems.append(f"token {tok}: {reports} report(s), expected at least {min_reports}")
    last_fraction = None
    for idx, val in values:
        if not isinstance(val, dict):
            problems.append(f"token {tok}: progress value is not an object: {short(val)}")
            continue
        kind = val.get("kind")
        if kind == "begin" and not isinstance(val.get("title"), str):
            problems.append(f"token {tok}: begin has no string title")
        if "message" in val and not isinstance(val["message"], str):
            problems.append(f"token {tok}: message must be a string")
        if "percentage" in val:
            pc = val["percentage"]
            if not (isinstance(pc, Num) and pc.is_integer_text() and 0 <= pc.value <= 100):
                problems.append(f"token {tok}: percentage must be an integer 0...100, got {short(pc)}")
        if "fraction" in val:
            fr = val["fraction"]
            if not isinstance(fr, Num) or not (0 <= fr.value <= 1):
                problems.append(f"token {tok}: fraction must be a number in 0...1, got {short(fr)}")
            else:
                if last_fraction is not None and fr.value < last_fraction:
                    problems.append(f"token {tok}: fraction decreased from {last_fraction} to {fr.text}")
                last_fraction = fr.value
        if kind == "report" and "fraction" not in val:
            problems.append(f"token {tok}: report without fraction")
        if response_at is not None and idx > response_at:
            problems.append(f"token {tok}: progress {kind!r} arrived after the response")
    return problems, used


# --------------------------------------------------------------------------------------------
# Vectors
# --------------------------------------------------------------------------------------------


class VectorError(Exception):
    pass


CASE_KEYS = {
    "name", "description", "ref", "args", "send", "closeStdin", "expect", "ordered",
    "expectExit", "progress", "maxSeconds", "timeoutSeconds",
}
SEND_KEYS = {"raw", "hex", "repeat", "delayMs", "await"}


class Case:
    def __init__(self, topic: str, raw: dict):
        if not isinstance(raw, dict):
            raise VectorError(f"{topic}: a case must be an object")
        unknown = set(raw) - CASE_KEYS
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise VectorError(f"{topic}: case without a name")
        self.id = f"{topic}/{name}"
        if unknown:
            raise VectorError(f"{self.id}: unknown case members {sorted(unknown)}")
        self.args = raw.get("args", [])
        if not isinstance(self.args, list) or not all(isinstance(a, str) for a in self.args):
            raise VectorError(f"{self.id}: args must be a list of strings")
        if not isinstance(raw.get("send"), list):
            raise VectorError(f"{self.id}: send must be a list")
        self.send = [self._send_item(i) for i in raw["send"]]
        if not isinstance(raw.get("expect"), list):
            raise VectorError(f"{self.id}: expect must be a list")
        self.expect = raw["expect"]
        self.ordered = bool(raw.get("ordered", False))
        self.close_stdin = bool(raw.get("closeStdin", True))
        self.expect_exit = as_int(raw["expectExit"], "expectExit") if "expectExit" in raw else None
        self.max_seconds = as_number(raw["maxSeconds"], "maxSeconds") if "maxSeconds" in raw else None
        self.timeout = as_number(raw["timeoutSeconds"], "timeoutSeconds") if "timeoutSeconds" in raw else None
        self.progress = raw.get("progress", [])
        for p in self.progress:
            if not isinstance(p, dict) or "token" not in p or "id" not in p:
                raise VectorError(f"{self.id}: progress checks need token and id")

    def _send_item(self, item):
        if isinstance(item, str):
            return ("bytes", item.encode("utf-8") + b"\n")
        if not isinstance(item, dict) or not item or set(item) - SEND_KEYS:
            raise VectorError(f"{self.id}: bad send item {short(item)}")
        if "delayMs" in item:
            return ("delay", as_int(item["delayMs"], "delayMs") / 1000.0)
        if "await" in item:
            return ("await", as_int(item["await"], "await"))
        repeat = as_int(item.get("repeat", Num("1")), "repeat")
        if "raw" in item:
            return ("bytes", item["raw"].encode("utf-8") * repeat)
        if "hex" in item:
            try:
                return ("bytes", bytes.fromhex(re.sub(r"\s+", "", item["hex"])) * repeat)
            except ValueError as e:
                raise VectorError(f"{self.id}: bad hex: {e}")
        raise VectorError(f"{self.id}: bad send item {short(item)}")


def load_vectors(directory: Path) -> list[Case]:
    cases = []
    seen = set()
    files = sorted(directory.glob("*.json"))
    if not files:
        raise VectorError(f"no *.json vector files in {directory}")
    for f in files:
        try:
            doc = loads(f.read_text(encoding="utf-8"))
        except ValueError as e:
            raise VectorError(f"{f}: {e}")
        raw_cases = doc.get("cases") if isinstance(doc, dict) else doc
        if not isinstance(raw_cases, list):
            raise VectorError(f"{f}: expected an object with 'cases' or a list of cases")
        for rc in raw_cases:
            c = Case(f.stem, rc)
            if c.id in seen:
                raise VectorError(f"duplicate case {c.id}")
            seen.add(c.id)
            cases.append(c)
    return cases


# --------------------------------------------------------------------------------------------
# Running one case
# --------------------------------------------------------------------------------------------


class Output:
    def __init__(self):
        self.lines: list[bytes] = []
        self.tail = b""
        self.cond = threading.Condition()
        self.eof = False


def _chunks(fd):
    """What `fd` delivers until its end (or a read error), chunk by chunk."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            return
        yield chunk


def _read_stdout(fd, out: Output):
    buf = b""
    for chunk in _chunks(fd):
        buf += chunk
        if b"\n" in buf:
            *complete, buf = buf.split(b"\n")
            with out.cond:
                out.lines.extend(complete)
                out.cond.notify_all()
    with out.cond:
        out.tail = buf
        out.eof = True
        out.cond.notify_all()


def _read_stderr(fd, sink: list, limit=1 << 20):
    size = 0
    for chunk in _chunks(fd):
        if size < limit:
            sink.append(chunk)
            size += len(chunk)


class Result:
    def __init__(self, case: Case):
        self.case = case
        self.failures: list[str] = []
        self.lines: list[bytes] = []
        self.stderr = b""
        self.exit_code = None
        self.elapsed = 0.0

    @property
    def ok(self):
        return not self.failures


def run_case(case: Case, command: list[str], default_timeout: float) -> Result:
    res = Result(case)
    timeout = case.timeout or default_timeout
    argv = command + case.args + [CONFORMANCE_FLAG]
    start = time.monotonic()
    deadline = start + timeout
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, start_new_session=True,
        )
    except OSError as e:
        res.failures.append(f"cannot start engine: {e}")
        return res

    out = Output()
    err_chunks: list[bytes] = []
    t_out = threading.Thread(target=_read_stdout, args=(proc.stdout.fileno(), out), daemon=True)
    t_err = threading.Thread(target=_read_stderr, args=(proc.stderr.fileno(), err_chunks), daemon=True)
    t_out.start()
    t_err.start()
    writer_notes: list[str] = []

    def writer():
        try:
            for kind, arg in case.send:
                if kind == "bytes":
                    proc.stdin.write(arg)
                    proc.stdin.flush()
                elif kind == "delay":
                    time.sleep(arg)
                elif kind == "await":
                    with out.cond:
                        ok = out.cond.wait_for(
                            lambda: len(out.lines) >= arg or out.eof,
                            timeout=max(0.0, deadline - time.monotonic()),
                        )
                        if not ok or len(out.lines) < arg:
                            writer_notes.append(f"gave up waiting for {arg} output line(s) (got {len(out.lines)})")
                            break
        except (BrokenPipeError, ConnectionResetError, OSError, ValueError):
            writer_notes.append("engine closed its stdin before all input was written")
        if case.close_stdin:
            try:
                proc.stdin.close()
            except OSError:
                pass

    t_w = threading.Thread(target=writer, daemon=True)
    t_w.start()

    timed_out = False
    try:
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(proc)
        proc.wait()
    res.elapsed = time.monotonic() - start
    try:
        proc.stdin.close()
    except OSError:
        pass
    t_w.join(timeout=2)
    t_out.join(timeout=max(2.0, deadline - time.monotonic()))
    if t_out.is_alive():  # a child process still holds stdout open
        _kill(proc)
        t_out.join(timeout=2)
    t_err.join(timeout=2)
    res.stderr = b"".join(err_chunks)
    res.exit_code = proc.returncode
    with out.cond:
        res.lines = list(out.lines)
        tail = out.tail

    if timed_out:
        res.failures.append(f"engine did not exit within {timeout:g} s (killed)")
    elif proc.returncode is not None and proc.returncode < 0:
        res.failures.append(f"engine died from signal {-proc.returncode}")
    res.failures += [n for n in writer_notes if "closed its stdin" not in n or case.expect_exit is None]
    if tail:
        res.failures.append(f"output ends with an unterminated line: {short(tail.decode('utf-8', 'replace'))}")

    values = []
    for n, raw in enumerate(res.lines, 1):
        v, problems = check_raw_line(raw)
        res.failures += [f"line {n}: {p}" for p in problems]
        if v is not None:
            values.append(v)
    if len(values) != len(res.lines):
        return res  # unparsable lines already reported

    # progress streams are checked separately and taken out before matching
    used = set()
    for spec in case.progress:
        problems, idx = check_progress(spec, values)
        res.failures += problems
        used |= idx
    rest = [v for i, v in enumerate(values) if i not in used]

    if case.ordered:
        if len(rest) != len(case.expect):
            res.failures.append(
                f"expected {len(case.expect)} message(s) in order, got {len(rest)}: "
                + " | ".join(short(v, 200) for v in rest)
            )
        else:
            for i, (e, a) in enumerate(zip(case.expect, rest)):
                r = match_message(e, a, f"message {i + 1}")
                if r:
                    res.failures.append(r)
                    break
    else:
        ok, reason = match_multiset(case.expect, rest, lambda e, a: match_message(e, a))
        if not ok:
            res.failures.append(reason)

    if case.expect_exit is not None and not timed_out and res.exit_code != case.expect_exit:
        res.failures.append(f"exit code {res.exit_code}, expected {case.expect_exit}")
    if case.max_seconds is not None and not timed_out and res.elapsed > case.max_seconds:
        res.failures.append(f"took {res.elapsed:.2f} s, expected at most {case.max_seconds:g} s")
    return res


def _kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the group we created with start_new_session
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except ProcessLookupError:
            pass


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" in argv:
        i = argv.index("--")
        own, command = argv[:i], argv[i + 1:]
    else:
        own, command = argv, []
    ap = argparse.ArgumentParser(
        prog="run.py",
        description="Runs the JSON-RPC 2.0 conformance vectors against an engine command.",
        usage="%(prog)s [--vectors DIR] [--filter NAME] [-v] [-j N] [--timeout S] -- ENGINE_COMMAND [ARGS...]",
    )
    ap.add_argument("--vectors", default=str(Path(__file__).resolve().parent / "vectors"),
                    help="folder of *.json vector files (default: vectors/ beside this script)")
    ap.add_argument("--filter", action="append", default=[],
                    help="run only cases whose 'file/name' contains this text (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="show output lines and stderr")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                    help=f"seconds per case (default {DEFAULT_TIMEOUT:g})")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    opts = ap.parse_args(own)

    try:
        cases = load_vectors(Path(opts.vectors))
    except VectorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if opts.filter:
        cases = [c for c in cases if any(f.lower() in c.id.lower() for f in opts.filter)]
    if opts.list:
        for c in cases:
            print(c.id)
        return 0
    if not command:
        ap.error("missing ENGINE_COMMAND after --")

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = [pool.submit(run_case, c, command, opts.timeout) for c in cases]
        for fut in futures:
            try:
                res = fut.result()
            except VectorError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            if res.ok:
                passed += 1
                print(f"PASS {res.case.id}", flush=True)
            else:
                failed += 1
                print(f"FAIL {res.case.id}: {' / '.join(res.failures)}", flush=True)
            if opts.verbose:
                print(f"    exit code {res.exit_code}, {res.elapsed:.2f} s")
                for raw in res.lines:
                    print("    < " + raw.decode("utf-8", "replace")[:2000])
                if not res.ok and res.stderr:
                    tail = res.stderr.decode("utf-8", "replace").splitlines()[-20:]
                    for line in tail:
                        print("    stderr: " + line[:500])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
