"""Strict JSON for the project's protocol tools (protocol/conformance/run.py, fuzz/stdio_fuzz.py).

Standard library only. What the engine's own parser (STOLJSON's JSONParser) insists on, these
insist on too: valid UTF-8, no NaN or Infinity, nesting no deeper than 512, and (when asked)
no repeated keys; numbers keep the exact text they were written with, so an id such as `1.50`
is matched and echoed as it was sent.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

MAX_DEPTH = 512  # JSONParser.defaultMaxDepth


class Num:
    """A JSON number that remembers its source text (`1.50`, `1e3`, `1234...890`); two numbers
    are equal when written alike (ids are matched by their spelling)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    @property
    def value(self) -> Decimal:
        return Decimal(self.text)

    def is_integer_text(self) -> bool:
        return re.fullmatch(r"-?(0|[1-9][0-9]*)", self.text) is not None

    def __eq__(self, other):
        return isinstance(other, Num) and other.text == self.text

    def __hash__(self):
        return hash(("num", self.text))

    def __repr__(self):
        return self.text


class Raw:
    """Already encoded JSON text, written as it is by `dumps`."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class InvalidJSON(ValueError):
    """Why text is not strict JSON; `reason` is `utf8` or `json`."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def _pairs(strict_keys: bool):
    def hook(pairs):
        obj = {}
        for key, value in pairs:
            if strict_keys and key in obj:
                raise ValueError(f"duplicate key {key!r}")
            obj[key] = value
        return obj
    return hook


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def nesting_depth(data: bytes) -> int:
    """The deepest bracket nesting outside strings (0 when it cannot pass `MAX_DEPTH`)."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return 0
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    depth = best = 0
    for b in brackets:
        if b in (0x5B, 0x7B):
            depth += 1
            best = max(best, depth)
        else:
            depth -= 1
    return best


def loads(data, strict_keys: bool = True):
    """`data` (bytes or text) as a value; numbers become `Num`. Raises `InvalidJSON`."""
    if isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidJSON("utf8", str(e))
    else:
        text = data
        raw = text.encode("utf-8", "surrogatepass")
    if nesting_depth(raw) > MAX_DEPTH:
        raise InvalidJSON("json", f"nesting deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_int=Num, parse_float=Num, parse_constant=_reject_constant, object_pairs_hook=_pairs(strict_keys))
    except (ValueError, RecursionError) as e:
        raise InvalidJSON("json", str(e))


def dumps(value, ascii_only: bool = False) -> str:
    """Compact JSON text; `Num` and `Raw` are written as they are."""
    if isinstance(value, (Raw, Num)):
        return value.text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=ascii_only)
    if isinstance(value, list):
        return "[" + ",".join(dumps(v, ascii_only) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=ascii_only) + ":" + dumps(v, ascii_only) for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


def type_name(value) -> str:
    """The JSON type of `value`: null, boolean, number, string, array or object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Num):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
