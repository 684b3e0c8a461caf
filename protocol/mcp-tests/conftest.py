"""Shared fixtures: the engine binary (STOL_ENGINE) and a fresh data directory per test."""
import os
import shutil
import tempfile

import pytest


@pytest.fixture
def engine():
    path = os.environ.get("STOL_ENGINE")
    if not path:
        pytest.fail("set STOL_ENGINE to the stol-engine binary")
    return os.path.abspath(path)


@pytest.fixture
def data_dir():
    path = tempfile.mkdtemp(prefix="stol-mcp-")
    yield path
    shutil.rmtree(path, ignore_errors=True)
