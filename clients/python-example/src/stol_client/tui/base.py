"""What every part of the browser shares, and all that the tabs and screens know of the app: the
:class:`Browser` they talk to, the guard that turns engine errors into readable messages, and the
base class of the tabs that reload when the engine or the language changes.

The app (``app.py``) implements :class:`Browser` and imports the tabs; the tabs import only this
module and the helpers beside it, never the app or each other.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Awaitable, Callable, Dict, Iterable, Optional, Protocol, TypeVar, cast

from textual.containers import Vertical
from textual.dom import DOMNode

from ..client import Call
from ..errors import EngineExited, StolClientError

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class Browser(Protocol):
    """The app as the tabs and screens see it: one engine, the language of names, navigation
    and messages."""

    #: The language of common names asked of the engine (``"en"``, ``"de"``…).
    lang: str
    #: Children per page in the Tree tab.
    page_size: int

    async def call(self, method: str, **params: Any) -> Any:
        """``method`` on the engine; raises ``EngineExited`` when it is not running."""

    async def request(self, method: str, **params: Any) -> Call:
        """Start ``method`` and return its handle (for requests the user may cancel)."""

    def show_error(self, error: BaseException) -> None:
        """An error as a readable message (never a traceback)."""

    def show_message(self, text: str) -> None:
        """A short information message."""

    def engine_stopped(self, returncode: Optional[int] = None) -> None:
        """Show that the engine is gone, and how to restart it."""

    def open_detail(self, taxon_id: int, replace: bool = False) -> None:
        """Show the Detail screen of ``taxon_id`` (in place of the current one if ``replace``)."""

    def set_compare_slot(self, slot: str, taxon: Dict[str, Any]) -> None:
        """Put ``taxon`` in the Compare tab's slot ``"a"`` or ``"b"``."""

    def note_languages(self, codes: Iterable[str]) -> None:
        """Remember languages seen in a taxon's names."""


def browser_of(node: DOMNode) -> Browser:
    """The app a widget or screen runs in, as the :class:`Browser` it is."""
    return cast(Browser, node.app)


def guarded(method: F) -> F:
    """Runs an async method of a widget or screen, showing any client or engine error as a message
    (never a traceback). An engine that stopped is reported once by the app, with the restart key."""

    @functools.wraps(method)
    async def wrapper(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except asyncio.CancelledError:
            raise
        except EngineExited:
            browser_of(self).engine_stopped()
        except (StolClientError, OSError) as error:
            browser_of(self).show_error(error)
        return None

    return cast(F, wrapper)


class EnginePane(Vertical):
    """A tab whose content comes from the engine; ``reload`` draws it again (after a restart,
    a database switch or a language change)."""

    @property
    def browser(self) -> Browser:
        """The app."""
        return browser_of(self)

    def reload(self) -> None:
        """Fetch and draw this tab's content again."""

    def focus_default(self) -> None:
        """Focus this tab's first focusable widget."""
        for widget in self.query("*"):
            if widget.can_focus and not widget.disabled:
                widget.focus()
                return
