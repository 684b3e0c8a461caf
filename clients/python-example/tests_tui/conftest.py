"""Fixtures for the browser tests: the real engine, a small signed reference database, a large
signed file slow enough to cancel, and helpers that wait for the screen to show something.

These tests need Textual (the client's ``[tui]`` extra); ``scripts/test.sh`` runs them in
``clients/python-example/.venv-tui``.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import struct
import subprocess
import sys
import zlib
from dataclasses import dataclass

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from _engine_support import engine_path, require_engine  # noqa: E402

FIXTURE_SOURCE = HERE / "fixture"


@dataclass
class Kit:
    """Files made once per session with the real engine's tools."""

    engine: str
    database: pathlib.Path
    stol: pathlib.Path
    big_stol: pathlib.Path
    public_key: str
    key: pathlib.Path


def _run(*args: str) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


@pytest.fixture(scope="session")
def kit(tmp_path_factory) -> Kit:
    """The fixture database (``build-db``), packed and signed with a fresh key (``keygen``,
    ``pack``), and a 96 MiB signed file of zeros stored uncompressed: an import of it runs long
    enough to cancel, and fails at the database stage if it is not cancelled."""
    engine = require_engine()
    work = tmp_path_factory.mktemp("kit")
    database = work / "fixture.sqlite"
    _run(engine, "build-db", "--taxa", str(FIXTURE_SOURCE), "--out", str(database), "--quiet")
    key = work / "test.key"
    public_key = _run(engine, "keygen", "--out", str(key)).strip()
    stol = work / "fixture.stol"
    _run(engine, "pack", "--db", str(database), "--key", str(key), "--out", str(stol))
    raw = work / "zeros.bin"
    with open(raw, "wb") as out:
        chunk = b"\0" * (1 << 20)
        for _ in range(96):
            out.write(chunk)
    big = work / "big.stol"
    _run(engine, "pack", "--db", str(raw), "--key", str(key), "--out", str(big), "--unchecked",
         "--level", "0")
    raw.unlink()
    return Kit(engine, database, stol, big, public_key, key)


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


async def wait_for(pilot, predicate, what: str, timeout: float = 30.0):
    """Let the app run until ``predicate()`` is truthy (returns it), failing after ``timeout``
    seconds with ``what`` (the screen never showed it) and the messages the app showed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            value = predicate()
        except Exception:  # the widget may not be mounted yet
            value = None
        if value:
            await pilot.pause()  # let the screen catch up with what was just seen
            return value
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what}; the app said: "
                        f"{getattr(pilot.app, 'messages', None)}")
        await asyncio.sleep(0.03)  # the app runs meanwhile (a pilot pause per poll costs more)


def engine_for_tests() -> str:
    """The engine under test, as a string."""
    return str(engine_path())


def png(width: int, height: int, pixel) -> bytes:
    """An 8-bit RGB PNG whose pixel (x, y) is ``pixel(x, y)``, rows unfiltered."""
    raw = b"".join(b"\0" + bytes(c for x in range(width) for c in pixel(x, y))
                   for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def find_child(parent, name: str):
    """The tree row under ``parent`` for the taxon called ``name``, or ``None``."""
    from stol_client.tui.tree_pane import TaxonRow

    return next((node for node in parent.children if isinstance(node.data, TaxonRow)
                 and node.data.taxon["scientificName"] == name), None)


def plain(widget) -> str:
    """The text a Static shows."""
    content = widget.render()
    return str(getattr(content, "plain", content))


os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
