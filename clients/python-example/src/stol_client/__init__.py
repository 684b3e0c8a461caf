"""Example Python client for stol-engine (newline-delimited JSON-RPC 2.0 over stdio).

    import asyncio
    from stol_client import EngineClient

    async def main():
        async with EngineClient.start() as engine:
            print(await engine.call("ping"))

    asyncio.run(main())
"""

from ._version import __version__  # noqa: E402
from .client import (  # noqa: E402
    DEFAULT_STREAM_LIMIT,
    Call,
    EngineClient,
    Notification,
    Progress,
    Subscription,
    find_engine,
)
from .errors import (  # noqa: E402
    EngineError,
    EngineExited,
    EngineNotFound,
    InternalError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotFound,
    NotPossible,
    ParseError,
    ProtocolError,
    RequestCancelled,
    ServerShutDown,
    StolClientError,
)

__all__ = [
    "__version__",
    "EngineClient", "Call", "Notification", "Progress", "Subscription", "find_engine",
    "DEFAULT_STREAM_LIMIT",
    "StolClientError", "EngineNotFound", "EngineExited", "ProtocolError", "EngineError",
    "ParseError", "InvalidRequest", "MethodNotFound", "InvalidParams", "InternalError",
    "RequestCancelled", "ServerShutDown", "NotFound", "NotPossible",
]
