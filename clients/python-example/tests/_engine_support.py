"""Finding the engine for the tests, and asking it which methods it serves."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Optional, Tuple

import pytest

#: <repo>/clients/python-example/tests/_engine_support.py -> <repo>
REPO_ROOT = Path(__file__).resolve().parents[3]
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
SRC = PACKAGE_ROOT / "src"


def engine_path() -> Path:
    """``$STOL_ENGINE``, else ``<repo>/.build/debug/stol-engine``."""
    return Path(os.environ.get("STOL_ENGINE") or REPO_ROOT / ".build" / "debug" / "stol-engine")


def engine_problem() -> Optional[str]:
    """Why the engine cannot be used, or ``None``."""
    path = engine_path()
    if not path.is_file():
        return (f"stol-engine not found at {path}. Build it with `swift build` in {REPO_ROOT}, "
                f"or point STOL_ENGINE at an engine binary.")
    if not os.access(path, os.X_OK):
        return f"stol-engine at {path} is not executable"
    return None


def require_engine() -> str:
    """Path of the engine under test. When it is missing the calling test fails (never skips)."""
    problem = engine_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    return str(engine_path())


@functools.lru_cache(maxsize=None)
def discovered_methods() -> Tuple[Optional[frozenset], str]:
    """``(names, note)``: the method names listed by the engine's ``rpc.discover``.

    ``names`` is ``None`` when the engine is missing, so that dependent tests are not skipped
    but fail saying the engine is missing. When the engine runs but ``rpc.discover`` gives no
    usable answer, ``names`` is empty and ``note`` says why (``test_discover`` fails on that).
    """
    if engine_problem():
        return None, ""
    try:
        with tempfile.TemporaryDirectory() as data_dir:
            proc = subprocess.run(
                [str(engine_path()), "--data-dir", data_dir],
                input=b'{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n',
                capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        return frozenset(), f"rpc.discover failed: {e}"
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("id") == 1:
            result = msg.get("result")
            if not isinstance(result, dict):
                return frozenset(), f"rpc.discover answered {msg!r}"
            return frozenset(m.get("name") for m in result.get("methods", [])
                             if isinstance(m, dict)), ""
    return frozenset(), f"rpc.discover gave no parsable response line: {proc.stdout[:200]!r}"


def requires_methods(*methods: str):
    """Skip until the engine lists every one of ``methods`` in ``rpc.discover``. (Never skips
    when the engine is missing: the test then fails and says so.)"""
    known, note = discovered_methods()
    missing = [] if known is None else [m for m in methods if m not in known]
    reason = f"engine's rpc.discover does not list {', '.join(missing)} yet"
    if note:
        reason += f" ({note})"
    return pytest.mark.skipif(bool(missing), reason=reason)
