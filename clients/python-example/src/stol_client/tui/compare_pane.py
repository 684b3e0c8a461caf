"""The Compare tab: two taxa drawn as two branches joining at their common ancestor, with the
distance between them, the clade they share and how similar their traits are."""

from __future__ import annotations

from typing import Any, Dict, Optional

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Static

from ..format import comparison_facts, short_name
from .base import EnginePane, guarded
from .styled import comparison_lines
from .suggester import EngineSuggester, suggest_again


class ComparePane(EnginePane):
    """Type a name in each box and press Enter (the best search match is taken), or press a / b
    on a Detail screen. The comparison is drawn as soon as both are chosen."""

    DEFAULT_CSS = """
    ComparePane #pickers { height: auto; }
    ComparePane #pickers Input { width: 1fr; }
    ComparePane #pickers Button { min-width: 12; }
    ComparePane #picked { height: auto; padding: 0 1; }
    ComparePane #comparison { padding: 1 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.slots: Dict[str, Optional[Dict[str, Any]]] = {"a": None, "b": None}
        self.result: Optional[Dict[str, Any]] = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="pickers"):
            yield Input(placeholder="First species (A), e.g. lion", id="a",
                        suggester=EngineSuggester(self.browser))
            yield Input(placeholder="Second species (B), e.g. tiger", id="b",
                        suggester=EngineSuggester(self.browser))
            yield Button("Compare", id="go", variant="primary")
        yield Static("", id="picked")
        with VerticalScroll(id="comparison"):
            yield Static(Text("Choose two species to compare.", style="dim"), id="drawing")

    def reload(self) -> None:
        """Draw the comparison again, names in the browser's language (a single chosen taxon is
        fetched again in it)."""
        if self.slots["a"] and self.slots["b"]:
            self.run_compare()
        elif self.slots["a"] or self.slots["b"]:
            self.refetch_slots()
        for slot in ("a", "b"):
            box = self.query_one(f"#{slot}", Input)
            if box.has_focus and box.value:  # its completion is on screen
                self.run_worker(suggest_again(box), group="suggest-again", exclusive=True)

    @work(exclusive=True, group="compare")
    @guarded
    async def refetch_slots(self) -> None:
        """The chosen taxa again, from the engine, with their names in the browser's language."""
        for slot in ("a", "b"):
            taxon = self.slots[slot]
            if taxon:
                self.slots[slot] = await self.browser.call("taxon/get", id=taxon["id"],
                                                           lang=self.browser.lang)
        self._show_picked()

    def set_slot(self, slot: str, taxon: Dict[str, Any]) -> None:
        """Put ``taxon`` in slot ``"a"`` or ``"b"`` and compare when both are set."""
        self.slots[slot] = taxon
        self.query_one(f"#{slot}", Input).value = taxon.get("scientificName", "")
        self._show_picked()
        if self.slots["a"] and self.slots["b"]:
            self.run_compare()

    def _show_picked(self) -> None:
        text = Text()
        for slot in ("a", "b"):
            taxon = self.slots[slot]
            text.append(f"{slot.upper()}: ", style="bold cyan")
            text.append(short_name(taxon) if taxon else "—")
            text.append("    ")
        self.query_one("#picked", Static).update(text)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id in ("a", "b"):
            self.pick(event.input.id, event.value)

    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        for slot in ("a", "b"):
            value = self.query_one(f"#{slot}", Input).value
            taxon = self.slots[slot]
            if value.strip() and (taxon is None or taxon.get("scientificName") != value):
                self.pick(slot, value)
                return
        self.run_compare()

    @work(group="compare-pick")
    @guarded
    async def pick(self, slot: str, text: str) -> None:
        """Choose the best ``search/query`` match for ``text`` as slot ``slot``."""
        if not text.strip():
            return
        result = await self.browser.call("search/query", query=text, limit=1,
                                         lang=self.browser.lang)
        results = result.get("results", [])
        if not results:
            self.browser.show_message(f"Nothing matches “{text}”.")
            return
        self.set_slot(slot, results[0])
        if slot == "a" and not self.slots["b"]:
            self.query_one("#b", Input).focus()

    @work(exclusive=True, group="compare")
    @guarded
    async def run_compare(self) -> None:
        a, b = self.slots["a"], self.slots["b"]
        if not a or not b:
            return
        drawing = self.query_one("#drawing", Static)
        drawing.update(Text("comparing…", style="dim"))
        try:
            result = await self.browser.call("compare/taxa", a=a["id"], b=b["id"],
                                             lang=self.browser.lang)
        except Exception:
            drawing.update("")
            raise
        self.result = result
        # The answer names both in the asked language: the labels above follow it.
        for slot in ("a", "b"):
            if isinstance(result.get(slot), dict):
                self.slots[slot] = result[slot]
        self._show_picked()
        text = Text("\n").join(comparison_lines(result, self.browser.lang))
        text.append("\n")
        for label, words in comparison_facts(result):
            text.append(f"\n{label}: ", style="bold")
            text.append(words)
        drawing.update(text)
