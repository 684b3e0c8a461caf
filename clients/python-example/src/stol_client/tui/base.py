"""What every part of the browser shares: the guard that turns engine errors into readable
messages, and the base class of the tabs that reload when the engine or the language changes."""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any, Awaitable, Callable, TypeVar, cast

from textual.containers import Vertical

from ..errors import EngineExited, StolClientError

if TYPE_CHECKING:  # pragma: no cover
    from .app import BrowserApp

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def guarded(method: F) -> F:
    """Runs an async method, showing any client or engine error as a message (never a
    traceback). An engine that stopped is reported once by the app, with the restart key."""

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except asyncio.CancelledError:
            raise
        except EngineExited:
            self.app.engine_stopped()
        except (StolClientError, OSError) as error:
            self.app.show_error(error)
        return None

    return cast(F, wrapper)


class EnginePane(Vertical):
    """A tab whose content comes from the engine; ``reload`` draws it again (after a restart,
    a database switch or a language change)."""

    @property
    def browser(self) -> "BrowserApp":
        """The app, typed."""
        return cast("BrowserApp", self.app)

    def reload(self) -> None:
        """Fetch and draw this tab's content again."""

    def focus_default(self) -> None:
        """Focus this tab's first focusable widget."""
        for widget in self.query("*"):
            if widget.can_focus and not widget.disabled:
                widget.focus()
                return
