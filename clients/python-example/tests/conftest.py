import os
import subprocess
import sys

import pytest

from _engine_support import PACKAGE_ROOT, SRC, engine_path, require_engine

from stol_client import EngineClient


@pytest.fixture(scope="session")
def engine() -> str:
    """Path of the engine under test, checked lazily: the tests that start it fail when it is
    missing (reported as FAILED rather than as a fixture ERROR)."""
    return str(engine_path())


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def start_engine(engine, data_dir):
    """``async with start_engine() as client:`` -- the engine with the test methods enabled and a
    temporary data directory."""

    def start(**kwargs):
        require_engine()
        kwargs.setdefault("data_dir", data_dir)
        kwargs.setdefault("conformance_methods", True)
        return EngineClient.start(engine, **kwargs)

    return start


@pytest.fixture
def run_cli(engine, data_dir):
    """Run ``python -m stol_client --engine ENGINE --data-dir DIR ARGS...``."""

    def run(*args, timeout=60, engine_path=None, extra_env=None):
        if engine_path is None:
            require_engine()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
        env.update(extra_env or {})
        cmd = [sys.executable, "-m", "stol_client", "--engine", engine_path or engine,
               "--data-dir", str(data_dir), *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=str(PACKAGE_ROOT))

    return run
