"""Completion while typing a name, from the engine's ``search/autocomplete`` in the browser's
language (the Search tab's box and the Compare tab's two boxes)."""

from __future__ import annotations

from typing import Callable, List, Optional

from textual.suggester import Suggester
from textual.widgets import Input

from ..errors import StolClientError
from .base import Browser

#: Suggestions asked for per keystroke.
SUGGESTION_LIMIT = 6


class EngineSuggester(Suggester):
    """Inline completion from ``search/autocomplete`` (accept it with →). Every suggestion the
    engine gave is passed to ``on_suggestions(value, texts)``, for a list under the box."""

    def __init__(self, browser: Browser,
                 on_suggestions: Optional[Callable[[str, List[str]], None]] = None) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.browser = browser
        self.on_suggestions = on_suggestions

    async def get_suggestion(self, value: str) -> Optional[str]:
        if not value.strip():
            if self.on_suggestions:
                self.on_suggestions(value, [])
            return None
        try:
            result = await self.browser.call("search/autocomplete", prefix=value,
                                             limit=SUGGESTION_LIMIT, lang=self.browser.lang)
        except (StolClientError, OSError):
            return None  # the search itself reports errors; a missing suggestion is harmless
        texts = [s.get("text", "") for s in result.get("suggestions", [])]
        if self.on_suggestions:
            self.on_suggestions(value, texts)
        for text in texts:
            if text.lower().startswith(value.lower()) and len(text) > len(value):
                return value + text[len(value):]
        return None



async def suggest_again(box: Input) -> None:
    """Ask the engine again for what ``box`` holds, when it completes from the engine (the
    language changed): its completion and list follow without a keystroke."""
    if isinstance(box.suggester, EngineSuggester):
        await box.suggester._get_suggestion(box, box.value)
