"""An asyncio client for stol-engine.

The engine is a child process speaking newline-delimited JSON-RPC 2.0 on stdin/stdout (see
``protocol/README.md``). :class:`EngineClient` spawns it, runs one reader task for stdout (responses
are matched to calls by id, notifications go to subscribers) and one for stderr (every line is
forwarded to the ``stol_client.engine`` logger, so the engine can never block on a full pipe).
"""

from __future__ import annotations

import asyncio
import collections
import inspect
import itertools
import json
import logging
import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable, Deque, Dict, Generator, Optional, Union

from ._version import __version__
from .errors import EngineError, EngineExited, EngineNotFound, ProtocolError

__all__ = [
    "EngineClient",
    "Call",
    "Notification",
    "Progress",
    "Subscription",
    "find_engine",
    "DEFAULT_STREAM_LIMIT",
]

log = logging.getLogger("stol_client")
engine_log = logging.getLogger("stol_client.engine")

#: StreamReader limit: the longest line read in one piece. Responses can be megabytes; the
#: engine's own cap on incoming lines is 64 MiB, so allow more than that on the way back.
DEFAULT_STREAM_LIMIT = 256 * 1024 * 1024

ProgressCallback = Callable[["Progress"], Any]
NotificationCallback = Callable[["Notification"], Any]
Params = Union[Dict[str, Any], list, None]


# --------------------------------------------------------------------------------------------
# Small value types


@dataclass(frozen=True)
class Notification:
    """A notification sent by the engine."""

    method: str
    params: Any = None


@dataclass(frozen=True)
class Progress:
    """One ``$/progress`` notification, flattened.

    ``kind`` is ``"begin"``, ``"report"`` or ``"end"``. ``fraction`` is the engine's ``fraction``
    (0…1) or, when only ``percentage`` was sent, ``percentage / 100``. ``value`` is the raw
    ``params.value`` object.
    """

    token: Any
    kind: str
    title: Optional[str] = None
    message: Optional[str] = None
    fraction: Optional[float] = None
    percentage: Optional[float] = None
    value: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_params(cls, params: Dict[str, Any]) -> "Progress":
        value = params.get("value")
        if not isinstance(value, dict):
            value = {}
        fraction = value.get("fraction")
        percentage = value.get("percentage")
        if not isinstance(fraction, (int, float)) or isinstance(fraction, bool):
            fraction = None
        if not isinstance(percentage, (int, float)) or isinstance(percentage, bool):
            percentage = None
        if fraction is None and percentage is not None:
            fraction = percentage / 100.0
        return cls(
            token=params.get("token"),
            kind=str(value.get("kind", "")),
            title=value.get("title"),
            message=value.get("message"),
            fraction=float(fraction) if fraction is not None else None,
            percentage=float(percentage) if percentage is not None else None,
            value=value,
        )


_END = object()


class Subscription:
    """An async iterator over notifications (see :meth:`EngineClient.notifications`).

    Iteration ends when the subscription is closed or the client closes. Use it as an async
    context manager to unsubscribe when done.
    """

    def __init__(self, client: "EngineClient", method: str) -> None:
        self.method = method
        self._client = client
        self._queue: asyncio.Queue = asyncio.Queue()
        self._closed = False
        self._unsubscribe = client.on_notification(method, self._queue.put_nowait)
        client._subscriptions.add(self)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._unsubscribe()
            self._client._subscriptions.discard(self)
            self._queue.put_nowait(_END)

    def __aiter__(self) -> "Subscription":
        return self

    async def __anext__(self) -> Notification:
        item = await self._queue.get()
        if item is _END:
            self._queue.put_nowait(_END)  # keep later __anext__ calls ending too
            raise StopAsyncIteration
        return item

    async def get(self, timeout: Optional[float] = None) -> Notification:
        """The next notification; raises ``asyncio.TimeoutError`` after ``timeout`` seconds."""
        return await asyncio.wait_for(self.__anext__(), timeout)

    async def __aenter__(self) -> "Subscription":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.close()


# --------------------------------------------------------------------------------------------
# A request in flight


class Call:
    """A request that has been sent. ``await call`` gives its result or raises its error.

    Obtained from :meth:`EngineClient.request`; :meth:`EngineClient.call` is the usual shortcut.
    """

    def __init__(self, client: "EngineClient", id: int, method: str,
                 progress_token: Any = None) -> None:
        self.id = id
        self.method = method
        self.progress_token = progress_token
        self._client = client
        self._future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._abandoned = False
        self._cancel_sent = False

    def done(self) -> bool:
        return self._future.done()

    def __await__(self) -> Generator[Any, None, Any]:
        # shield: cancelling the awaiting task must not cancel the future, which still has to
        # receive the engine's answer.
        return asyncio.shield(self._future).__await__()

    async def cancel(self, timeout: Optional[float] = 30.0) -> bool:
        """Send ``$/cancelRequest`` and wait for the engine's answer to this request.

        Returns ``True`` when the engine answered ``-32800`` (``RequestCancelled``, which
        ``await call`` then raises), ``False`` when the request had finished first (its result
        or error stay available through ``await call``). Raises ``asyncio.TimeoutError`` if no
        answer arrives within ``timeout`` seconds.
        """
        from .errors import RequestCancelled

        if self._future.done():
            if self._future.cancelled():
                return True
            return isinstance(self._future.exception(), RequestCancelled)
        self._send_cancel()
        try:
            await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except RequestCancelled:
            return True
        except (EngineError, EngineExited):
            return False
        return False

    # internal ------------------------------------------------------------------------------

    def _send_cancel(self) -> None:
        if self._cancel_sent or self._future.done():
            return
        self._cancel_sent = True
        try:
            self._client._write_nowait(
                {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": self.id}})
        except EngineExited:
            pass

    def _abandon(self) -> None:
        """The caller stopped waiting: cancel the request on the engine side, drop the answer."""
        if self._future.done():
            if not self._future.cancelled():
                self._future.exception()  # mark retrieved; nobody will look at it
            return
        self._abandoned = True
        self._send_cancel()

    def _resolve(self, result: Any = None, error: Optional[BaseException] = None) -> None:
        if self._future.done():
            return
        if self._abandoned:
            self._future.cancel()
        elif error is not None:
            self._future.set_exception(error)
        else:
            self._future.set_result(result)


# --------------------------------------------------------------------------------------------
# Helpers


def find_engine(engine_path: Optional[Union[str, os.PathLike]] = None) -> str:
    """Resolve the engine executable: ``engine_path``, else ``$STOL_ENGINE``, else
    ``stol-engine`` on ``PATH``. Raises :class:`EngineNotFound`."""
    candidate = os.fspath(engine_path) if engine_path is not None else None
    source = "engine_path"
    if not candidate:
        candidate = os.environ.get("STOL_ENGINE") or None
        source = "STOL_ENGINE"
    if not candidate:
        found = shutil.which("stol-engine")
        if found:
            return found
        raise EngineNotFound(
            "stol-engine not found: pass engine_path / --engine, set STOL_ENGINE, "
            "or put stol-engine on PATH")
    if os.sep in candidate or (os.altsep and os.altsep in candidate) or os.path.exists(candidate):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
        raise EngineNotFound(f"stol-engine not found or not executable at {candidate} (from {source})")
    found = shutil.which(candidate)
    if found:
        return found
    raise EngineNotFound(f"stol-engine {candidate!r} (from {source}) is not on PATH")


async def _read_lines(reader: asyncio.StreamReader, what: str) -> AsyncIterator[bytes]:
    """Yield complete lines (with their LF). A line longer than the reader's limit is skipped
    with an error log instead of breaking the stream."""
    skipping = False
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as e:  # EOF
            if e.partial and not skipping:
                yield e.partial
            return
        except asyncio.LimitOverrunError as e:
            if not skipping:
                log.error("engine %s: a line longer than the stream limit was skipped", what)
            skipping = True
            await reader.readexactly(e.consumed)
            continue
        if skipping:  # the tail of an oversized line
            skipping = False
            continue
        yield line


_LEVEL_RE = re.compile(
    r"^(?:\S+\s+)?\[?(trace|debug|info|notice|warning|warn|error|critical|fatal)\]?[\s:]",
    re.IGNORECASE)
_LEVELS = {
    "trace": logging.DEBUG, "debug": logging.DEBUG, "info": logging.INFO,
    "notice": logging.INFO, "warning": logging.WARNING, "warn": logging.WARNING,
    "error": logging.ERROR, "critical": logging.CRITICAL, "fatal": logging.CRITICAL,
}


def _stderr_level(line: str) -> int:
    """Guess a logging level from a log line such as swift-log's
    ``2025-01-01T00:00:00+0000 warning stol-engine: ...``; INFO otherwise."""
    m = _LEVEL_RE.match(line)
    return _LEVELS[m.group(1).lower()] if m else logging.INFO


class _Starting:
    """What :meth:`EngineClient.start` returns: await it, or use it with ``async with``."""

    def __init__(self, factory: Callable[[], Awaitable["EngineClient"]]) -> None:
        self._factory = factory
        self._client: Optional[EngineClient] = None

    def __await__(self) -> Generator[Any, None, "EngineClient"]:
        return self._factory().__await__()

    async def __aenter__(self) -> "EngineClient":
        self._client = await self._factory()
        return self._client

    async def __aexit__(self, *exc: Any) -> None:
        if self._client is not None:
            await self._client.close()


# --------------------------------------------------------------------------------------------
# The client


class EngineClient:
    """A running stol-engine child process and the JSON-RPC session with it.

    Create it with ``client = await EngineClient.start(...)`` or
    ``async with EngineClient.start(...) as client:``. All methods must be used from the event
    loop that started it.
    """

    def __init__(self, process: asyncio.subprocess.Process, *,
                 trace: Optional[Callable[[str, Any], None]] = None) -> None:
        self.process = process
        #: ``initialize`` result (``serverInfo``, ``protocolVersion``, ``capabilities``).
        self.server_info: Dict[str, Any] = {}
        self._trace = trace
        self._ids = itertools.count(1)
        self._tokens = itertools.count(1)
        self._pending: Dict[Any, Call] = {}
        self._progress: Dict[Any, ProgressCallback] = {}
        self._subscribers: Dict[str, list] = collections.defaultdict(list)
        self._subscriptions: set = set()
        self._callback_tasks: set = set()
        self._stderr_tail: Deque[str] = collections.deque(maxlen=50)
        self._drain_lock = asyncio.Lock()
        self._exited = asyncio.Event()
        self._exit_error: Optional[EngineExited] = None
        self._close_task: Optional[asyncio.Task] = None
        self._stderr_task = asyncio.ensure_future(self._read_stderr())
        self._stdout_task = asyncio.ensure_future(self._read_stdout())

    # -- starting ----------------------------------------------------------------------------

    @classmethod
    def start(cls, engine_path: Optional[Union[str, os.PathLike]] = None,
              args: Any = (), *, data_dir: Optional[Union[str, os.PathLike]] = None,
              conformance_methods: bool = False, initialize: bool = True,
              client_name: str = "stol_client", env: Optional[Dict[str, str]] = None,
              cwd: Optional[Union[str, os.PathLike]] = None,
              limit: int = DEFAULT_STREAM_LIMIT, new_session: bool = True,
              timeout: float = 30.0,
              trace: Optional[Callable[[str, Any], None]] = None) -> _Starting:
        """Spawn the engine and (by default) send ``initialize``.

        ``engine_path`` defaults to ``$STOL_ENGINE`` or ``stol-engine`` on ``PATH``. ``args`` are
        extra command-line arguments; ``data_dir`` and ``conformance_methods`` add
        ``--data-dir DIR`` and ``--conformance-methods``. ``new_session`` starts the engine in
        its own session so a terminal's Ctrl-C reaches only this process, which can then cancel
        requests cleanly (the engine still exits when its stdin closes or, through
        ``initialize.processId``, when this process dies). ``trace(direction, message)`` is
        called with ``"send"``/``"recv"`` for every message, for debugging.
        """

        async def factory() -> "EngineClient":
            path = find_engine(engine_path)
            argv = [os.fspath(a) for a in args]
            if data_dir is not None:
                argv += ["--data-dir", os.fspath(data_dir)]
            if conformance_methods:
                argv.append("--conformance-methods")
            kwargs: Dict[str, Any] = {}
            if new_session:
                if os.name == "posix":
                    kwargs["start_new_session"] = True
                elif sys.platform == "win32":  # pragma: no cover
                    import subprocess
                    kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
            try:
                proc = await asyncio.create_subprocess_exec(
                    path, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, limit=limit, env=env, cwd=cwd, **kwargs)
            except OSError as e:
                raise EngineNotFound(f"cannot start {path}: {e}") from e
            log.debug("started %s %s (pid %s)", path, " ".join(argv), proc.pid)
            client = cls(proc, trace=trace)
            if initialize:
                try:
                    client.server_info = await client.call(
                        "initialize", processId=os.getpid(),
                        clientInfo={"name": client_name, "version": __version__},
                        timeout=timeout)
                    await client.notify("initialized")
                except BaseException:
                    await client.close(timeout=2.0)
                    raise
            return client

        return _Starting(factory)

    async def __aenter__(self) -> "EngineClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- state -------------------------------------------------------------------------------

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> Optional[int]:
        """The engine's exit status, ``None`` while it runs."""
        return self.process.returncode

    @property
    def is_running(self) -> bool:
        return not self._exited.is_set() and self.process.returncode is None

    @property
    def stderr_tail(self) -> list:
        """The last lines (up to 50) the engine wrote on stderr."""
        return list(self._stderr_tail)

    async def wait_exited(self) -> Optional[int]:
        """Wait until the engine has closed its output and exited; returns its exit status."""
        await self._exited.wait()
        return self.process.returncode

    # -- requests ----------------------------------------------------------------------------

    async def call(self, method: str, params: Params = None, /, *,
                   progress: Optional[ProgressCallback] = None,
                   timeout: Optional[float] = None, **kwparams: Any) -> Any:
        """Send a request and return its result.

        Params are given as keyword arguments (``call("search/query", query="leo")``) and/or as
        one positional dict (use that for a param called ``progress`` or ``timeout``, or a list
        for positional params). ``progress`` is called with a :class:`Progress` for every
        ``$/progress`` notification of this request, all before ``call`` returns.

        Errors raise :class:`~stol_client.errors.EngineError` subclasses; the engine dying
        raises :class:`~stol_client.errors.EngineExited`. Cancelling the task awaiting ``call``
        sends ``$/cancelRequest`` for it and raises ``asyncio.CancelledError`` at once (the
        engine's ``-32800`` answer is discarded when it arrives). ``timeout`` does the same and
        raises ``asyncio.TimeoutError``.
        """
        c = self._start_call(method, params, kwparams, progress)
        try:
            await self._drain()
            if timeout is None:
                return await c
            return await asyncio.wait_for(asyncio.shield(c._future), timeout)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            c._abandon()
            raise

    async def request(self, method: str, params: Params = None, /, *,
                      progress: Optional[ProgressCallback] = None, **kwparams: Any) -> Call:
        """Send a request and return its :class:`Call` handle without waiting for the answer.

        ``await handle`` gives the result; ``await handle.cancel()`` cancels it and waits for the
        engine's answer (then ``await handle`` raises ``RequestCancelled``).
        """
        c = self._start_call(method, params, kwparams, progress)
        try:
            await self._drain()
        except asyncio.CancelledError:
            c._abandon()
            raise
        return c

    async def notify(self, method: str, params: Params = None, /, **kwparams: Any) -> None:
        """Send a notification (no answer)."""
        msg: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        merged = self._merge_params(params, kwparams)
        if merged is not None:
            msg["params"] = merged
        self._write_nowait(msg)
        await self._drain()

    async def ping(self) -> Any:
        return await self.call("ping")

    async def discover(self) -> Dict[str, Any]:
        """The engine's OpenRPC document (``rpc.discover``)."""
        return await self.call("rpc.discover")

    async def method_names(self) -> set:
        """Names of the methods listed by ``rpc.discover``."""
        doc = await self.discover()
        methods = doc.get("methods", []) if isinstance(doc, dict) else []
        return {m.get("name") for m in methods if isinstance(m, dict) and m.get("name")}

    # -- notifications -----------------------------------------------------------------------

    def on_notification(self, method: str, callback: NotificationCallback) -> Callable[[], None]:
        """Call ``callback(Notification)`` for every notification named ``method`` (``"*"`` for
        all). Returns a function that unsubscribes.

        Callbacks run in the reader task, in arrival order: keep them short. If a callback
        returns an awaitable, it is run as a separate task (not awaited in order).
        """
        entry = [callback]  # a unique object, so the same callback may subscribe twice
        self._subscribers[method].append(entry)

        def unsubscribe() -> None:
            try:
                self._subscribers[method].remove(entry)
            except ValueError:
                pass

        return unsubscribe

    def notifications(self, method: str = "*") -> Subscription:
        """An async iterator over notifications named ``method`` (``"*"`` for all)::

            async with client.notifications("favorites/didChange") as sub:
                async for note in sub:
                    print(note.params)
        """
        return Subscription(self, method)

    # -- closing -----------------------------------------------------------------------------

    async def close(self, timeout: float = 5.0) -> Optional[int]:
        """Cancel requests still running, send ``shutdown`` then ``exit``, close stdin and wait
        for the engine to exit.

        If it has not exited after ``timeout`` seconds it is sent SIGTERM, and SIGKILL two
        seconds later as a last resort. Returns the exit status (0 after a clean shutdown).
        Safe to call more than once.
        """
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close(timeout))
        return await asyncio.shield(self._close_task)

    async def _close(self, timeout: float) -> Optional[int]:
        proc = self.process
        if self.is_running:
            # The engine answers shutdown only after every earlier request: cancel what is
            # still running (an import, a slow search) so closing does not wait it out.
            for pending in list(self._pending.values()):
                if not pending.done():
                    try:
                        pending._send_cancel()
                    except (EngineExited, OSError) as e:
                        log.debug("cancel before shutdown failed: %r", e)
            try:
                await self.call("shutdown", timeout=timeout)
            except (EngineError, EngineExited, asyncio.TimeoutError, OSError) as e:
                log.debug("shutdown failed: %r", e)
            try:
                await self.notify("exit")
            except (EngineExited, OSError) as e:
                log.debug("exit failed: %r", e)
        self._close_stdin()
        try:
            rc = await asyncio.wait_for(proc.wait(), timeout)
        except asyncio.TimeoutError:
            log.warning("engine (pid %s) did not exit within %.1fs; terminating it", proc.pid, timeout)
            self._signal("terminate")
            try:
                rc = await asyncio.wait_for(proc.wait(), 2.0)
            except asyncio.TimeoutError:
                log.warning("engine (pid %s) ignored SIGTERM; killing it", proc.pid)
                self._signal("kill")
                rc = await proc.wait()
        # Let the readers see EOF so every stderr line is logged and pending calls are failed.
        try:
            await asyncio.wait_for(asyncio.gather(self._stdout_task, self._stderr_task,
                                                  return_exceptions=True), timeout)
        except asyncio.TimeoutError:
            self._stdout_task.cancel()
            self._stderr_task.cancel()
        self._finish(rc)
        log.info("engine exited with code %s", rc)
        return rc

    def _signal(self, what: str) -> None:
        try:
            getattr(self.process, what)()
        except ProcessLookupError:
            pass

    def _close_stdin(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            try:
                stdin.close()
            except (OSError, RuntimeError):
                pass

    # -- internals: writing ------------------------------------------------------------------

    @staticmethod
    def _merge_params(params: Params, kwparams: Dict[str, Any]) -> Params:
        if params is None:
            return dict(kwparams) if kwparams else None
        if isinstance(params, dict):
            merged = dict(params)
            merged.update(kwparams)
            return merged
        if isinstance(params, (list, tuple)):
            if kwparams:
                raise TypeError("cannot mix positional (list) params with keyword params")
            return list(params)
        raise TypeError(f"params must be a dict or a list, not {type(params).__name__}")

    def _start_call(self, method: str, params: Params, kwparams: Dict[str, Any],
                    progress: Optional[ProgressCallback]) -> Call:
        merged = self._merge_params(params, kwparams)
        token = None
        if progress is not None:
            if isinstance(merged, list):
                raise TypeError("progress needs object params")
            merged = dict(merged or {})
            meta = dict(merged.get("_meta") or {})
            token = f"py-{next(self._tokens)}"
            meta["progressToken"] = token
            merged["_meta"] = meta
        id = next(self._ids)
        msg: Dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
        if merged is not None:
            msg["params"] = merged
        c = Call(self, id, method, token)
        self._pending[id] = c
        if token is not None:
            self._progress[token] = progress  # type: ignore[assignment]
        try:
            self._write_nowait(msg)
        except BaseException:
            self._pending.pop(id, None)
            self._progress.pop(token, None)
            raise
        return c

    def _write_nowait(self, msg: Any) -> None:
        """Queue one message on stdin (one write call, so messages never interleave)."""
        stdin = self.process.stdin
        if self._exited.is_set() or stdin is None or stdin.is_closing():
            raise self._exit_error or EngineExited(self.process.returncode, list(self._stderr_tail))
        data = json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        if self._trace:
            self._trace("send", msg)
        stdin.write(data)

    async def _drain(self) -> None:
        stdin = self.process.stdin
        if stdin is None:
            return
        try:
            async with self._drain_lock:
                await stdin.drain()
        except (ConnectionError, BrokenPipeError, OSError) as e:
            raise self._exit_error or EngineExited(
                self.process.returncode, list(self._stderr_tail)) from e

    # -- internals: reading ------------------------------------------------------------------

    async def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        try:
            async for raw in _read_lines(self.process.stdout, "stdout"):
                line = raw.strip()
                if not line:
                    continue
                try:
                    msg = json.loads(line)
                except ValueError:
                    log.error("engine wrote a line that is not JSON on stdout: %r", line[:200])
                    continue
                if self._trace:
                    self._trace("recv", msg)
                self._dispatch(msg)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("stdout reader failed")
        finally:
            # The engine closed stdout: it has exited or is about to.
            try:
                rc = await asyncio.wait_for(asyncio.shield(self.process.wait()), 5.0)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                rc = self.process.returncode
            try:
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
            except (asyncio.TimeoutError, asyncio.CancelledError, Exception):
                pass
            self._finish(rc)

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        try:
            async for raw in _read_lines(self.process.stderr, "stderr"):
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not text.strip():
                    continue
                self._stderr_tail.append(text)
                engine_log.log(_stderr_level(text), "%s", text)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("stderr reader failed")

    def _finish(self, returncode: Optional[int]) -> None:
        """Fail what is still waiting and end subscriptions (idempotent)."""
        if self._exit_error is None:
            self._exit_error = EngineExited(returncode, list(self._stderr_tail))
        self._exited.set()
        pending, self._pending = self._pending, {}
        self._progress.clear()
        for c in pending.values():
            c._resolve(error=self._exit_error)
        for sub in list(self._subscriptions):
            sub.close()

    def _dispatch(self, msg: Any) -> None:
        if isinstance(msg, list):  # a batch response
            for item in msg:
                self._dispatch(item)
            return
        if not isinstance(msg, dict):
            log.error("engine sent a message that is not an object: %r", msg)
            return
        method = msg.get("method")
        if isinstance(method, str):
            if "id" in msg:  # a request from the engine: none are defined
                try:
                    self._write_nowait({"jsonrpc": "2.0", "id": msg["id"], "error": {
                        "code": -32601, "message": f"client does not serve {method}",
                        "data": {"kind": "methodNotFound", "method": method}}})
                except EngineExited:
                    pass
                return
            self._handle_notification(method, msg.get("params"))
            return
        if "id" in msg and ("result" in msg or "error" in msg):
            self._handle_response(msg)
            return
        log.error("engine sent an unrecognised message: %r", msg)

    def _handle_response(self, msg: Dict[str, Any]) -> None:
        id = msg["id"]
        c = self._pending.pop(id, None) if isinstance(id, (int, str)) and not isinstance(id, bool) else None
        if c is None:
            if id is None and "error" in msg:
                err = EngineError.from_json(msg["error"])
                log.error("engine reported an error with id null: %s (%s)", err.message, err.kind)
            else:
                log.warning("response for unknown id %r ignored", id)
            return
        if c.progress_token is not None:
            self._progress.pop(c.progress_token, None)
        if "error" in msg:
            c._resolve(error=EngineError.from_json(msg["error"]))
        else:
            c._resolve(result=msg.get("result"))

    def _handle_notification(self, method: str, params: Any) -> None:
        if method == "$/progress" and isinstance(params, dict):
            cb = self._progress.get(params.get("token"))
            if cb is not None:
                self._invoke(cb, Progress.from_params(params))
        subscribers = self._subscribers.get(method, []) + self._subscribers.get("*", [])
        if subscribers:
            note = Notification(method, params)
            for entry in list(subscribers):
                self._invoke(entry[0], note)

    def _invoke(self, callback: Callable[[Any], Any], arg: Any) -> None:
        try:
            result = callback(arg)
        except Exception:
            log.exception("notification callback %r failed", callback)
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._callback_tasks.add(task)

            def done(t: asyncio.Future) -> None:
                self._callback_tasks.discard(t)
                if not t.cancelled() and t.exception() is not None:
                    log.error("notification callback %r failed", callback, exc_info=t.exception())

            task.add_done_callback(done)

    def __repr__(self) -> str:
        state = "running" if self.is_running else f"exited({self.returncode})"
        return f"<EngineClient pid={self.process.pid} {state} pending={len(self._pending)}>"
