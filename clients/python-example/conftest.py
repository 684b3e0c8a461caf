"""Lets `python3 -m pytest clients/python-example` run without installing the package, and runs
`async def` tests with asyncio (no pytest-asyncio needed)."""

import asyncio
import inspect
import pathlib
import sys

import pytest

SRC = pathlib.Path(__file__).resolve().parent / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

#: Upper bound for one async test, in seconds.
ASYNC_TEST_TIMEOUT = 90


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    kwargs = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**kwargs), ASYNC_TEST_TIMEOUT))
    return True

# The browser's tests need Textual (the [tui] extra); scripts/test.sh runs them in their own
# virtual environment. Without Textual they are not collected.
try:
    import textual  # noqa: F401
except ImportError:
    collect_ignore = ["tests_tui"]
