"""Exceptions raised by :mod:`stol_client`.

``EngineError`` mirrors a JSON-RPC error object sent by the engine. Code that reacts to errors
should switch on :attr:`EngineError.kind` (``data.kind``, stable) or on the subclass, never on
the human-readable message.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "StolClientError",
    "EngineNotFound",
    "EngineExited",
    "ProtocolError",
    "EngineError",
    "ParseError",
    "InvalidRequest",
    "MethodNotFound",
    "InvalidParams",
    "InternalError",
    "RequestCancelled",
    "ServerShutDown",
    "NotFound",
    "NotPossible",
]


class StolClientError(Exception):
    """Base class of every exception raised by this package."""

    #: A short machine-readable word describing the failure (``data.kind`` for engine errors).
    kind: str | None = None


class EngineNotFound(StolClientError, FileNotFoundError):
    """The engine executable could not be found or started."""

    kind = "engineNotFound"


class EngineExited(StolClientError):
    """The engine process ended (or closed its output) while a call was waiting, or before it.

    ``returncode`` is the process exit status (``None`` when unknown, negative for a signal);
    ``stderr_tail`` holds the last lines the engine wrote on stderr.
    """

    kind = "engineExited"

    def __init__(self, returncode: int | None = None, stderr_tail: list[str] | None = None,
                 message: str | None = None) -> None:
        self.returncode = returncode
        self.stderr_tail = list(stderr_tail or [])
        if message is None:
            if returncode is None:
                message = "engine is not running"
            elif returncode < 0:
                message = f"engine was killed by signal {-returncode}"
            else:
                message = f"engine exited with code {returncode}"
            if self.stderr_tail:
                message += f"; last stderr line: {self.stderr_tail[-1]}"
        super().__init__(message)


class ProtocolError(StolClientError):
    """The engine sent something that does not follow the protocol."""

    kind = "protocolError"


class EngineError(StolClientError):
    """A JSON-RPC error response from the engine.

    ``code`` is the JSON-RPC error code, ``message`` the human-readable text and ``data`` the
    error's ``data`` member (usually a dict holding at least ``kind``).
    """

    #: JSON-RPC code handled by the subclass; ``None`` on the base class.
    CODE: int | None = None

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    @property  # type: ignore[override]
    def kind(self) -> str | None:
        """``data.kind``: the stable string clients should switch on (``None`` if absent)."""
        if isinstance(self.data, dict):
            kind = self.data.get("kind")
            if isinstance(kind, str):
                return kind
        return None

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"

    @classmethod
    def from_json(cls, error: Any) -> "EngineError":
        """Build the most specific subclass for a JSON-RPC ``error`` object."""
        if not isinstance(error, dict):
            return EngineError(-32603, f"malformed error object: {error!r}", None)
        code = error.get("code")
        message = error.get("message")
        if not isinstance(message, str):
            message = repr(message)
        data = error.get("data")
        if not isinstance(code, int) or isinstance(code, bool):
            return EngineError(-32603, message, data)
        subclass = _BY_CODE.get(code, EngineError)
        return subclass(code, message, data)


class ParseError(EngineError):
    CODE = -32700


class InvalidRequest(EngineError):
    CODE = -32600


class MethodNotFound(EngineError):
    CODE = -32601


class InvalidParams(EngineError):
    """``-32602``; ``field`` is the dotted path of the offending parameter, when given."""

    CODE = -32602

    @property
    def field(self) -> str | None:
        return self.data.get("field") if isinstance(self.data, dict) else None


class InternalError(EngineError):
    CODE = -32603


class RequestCancelled(EngineError):
    """``-32800``: the engine stopped the request because it was cancelled."""

    CODE = -32800


class ServerShutDown(EngineError):
    """``-32001``: a request sent after ``shutdown``."""

    CODE = -32001


class NotFound(EngineError):
    """``-32002``: an id that names nothing (``kind`` e.g. ``taxonNotFound``)."""

    CODE = -32002


class NotPossible(EngineError):
    """``-32003``: a valid request that cannot be carried out (``kind`` e.g. ``notASpecies``)."""

    CODE = -32003


_BY_CODE: dict[int, type[EngineError]] = {
    c.CODE: c  # type: ignore[misc]
    for c in (ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError,
              RequestCancelled, ServerShutDown, NotFound, NotPossible)
}
