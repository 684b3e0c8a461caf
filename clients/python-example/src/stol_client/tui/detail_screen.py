"""The Detail screen of one taxon: names by language, traits, references, its lineage as a
clickable breadcrumb, closest relatives, the favourite toggle and a picture from a media pack."""

from __future__ import annotations

import asyncio
import base64
import binascii
from typing import Any, Dict, List, Optional, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import NotPossible
from ..format import conservation_words, fallback_language, language_label, short_name
from .base import Browser, browser_of, guarded
from .picture import half_blocks
from .styled import scientific, taxon_label


class Lineage(Static, can_focus=True):
    """The path from the root to a taxon. Click a name, or ← → and Enter, to open it."""

    BINDINGS = [("left", "move(-1)", "Previous"), ("right", "move(1)", "Next"),
                ("enter", "open", "Open")]
    index: reactive[int] = reactive(-1)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.path: List[Dict[str, Any]] = []

    def show(self, path: List[Dict[str, Any]]) -> None:
        """Show ``path`` (root first), with the last taxon chosen."""
        self.path = path
        self.index = len(path) - 1
        self._draw()

    def watch_index(self) -> None:
        self._draw()

    def _draw(self) -> None:
        parts = []
        for i, taxon in enumerate(self.path):
            name = escape(taxon.get("scientificName") or "?")
            style = "reverse" if i == self.index and self.has_focus else "underline"
            parts.append(f"[{style} @click=screen.open_lineage({i})]{name}[/]")
        self.update(" › ".join(parts))

    def on_focus(self) -> None:
        self.call_after_refresh(self._draw)  # has_focus is set once the event is handled

    def on_blur(self) -> None:
        self.call_after_refresh(self._draw)

    def action_move(self, step: int) -> None:
        if self.path:
            self.index = max(0, min(len(self.path) - 1, self.index + step))

    def action_open(self) -> None:
        if 0 <= self.index < len(self.path):
            cast("DetailScreen", self.screen).action_open_lineage(self.index)


class DetailScreen(Screen):
    """One taxon. Esc goes back; f toggles the favourite; u opens the parent; a / b put it in
    the Compare tab's first or second slot."""

    DEFAULT_CSS = """
    DetailScreen VerticalScroll { padding: 0 1; }
    DetailScreen #title { margin-top: 1; }
    DetailScreen Lineage { margin: 1 0 0 0; }
    DetailScreen #top { height: auto; margin-top: 1; }
    DetailScreen #facts { width: 1fr; height: auto; }
    DetailScreen #picture { width: 44; height: auto; border: round $primary; padding: 0 1; }
    DetailScreen .section { margin-top: 1; text-style: bold; color: $accent; }
    DetailScreen #relatives { height: auto; max-height: 12; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f", "toggle_favourite", "Favourite"),
        Binding("u", "parent", "Parent"),
        Binding("a", "compare('a')", "Compare A"),
        Binding("b", "compare('b')", "Compare B"),
    ]

    def __init__(self, taxon_id: int) -> None:
        super().__init__()
        self.taxon_id = taxon_id
        self.detail: Optional[Dict[str, Any]] = None
        self.is_favourite: Optional[bool] = None

    @property
    def browser(self) -> Browser:
        """The app."""
        return browser_of(self)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("loading…", id="title")
            yield Lineage(id="lineage")
            with Horizontal(id="top"):
                yield Static("", id="facts")
                yield Static("", id="picture")
            yield Static("Names", classes="section")
            yield Static("", id="names")
            yield Static("Traits", classes="section")
            yield Static("", id="traits")
            yield Static("References", classes="section")
            yield Static("", id="references")
            yield Static("Closest relatives (Enter opens)", classes="section")
            yield OptionList(id="relatives")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Fetch everything again (after a restart or a language change)."""
        self.load()

    @work(exclusive=True, group="detail")
    @guarded
    async def load(self) -> None:
        app = self.browser
        detail, favourite = await asyncio.gather(
            app.call("taxon/detail", id=self.taxon_id, lang=app.lang),
            app.call("favorites/contains", taxonId=self.taxon_id))
        self.detail = detail
        self.is_favourite = bool(favourite.get("isFavorite"))
        app.note_languages(detail.get("names", {}).keys())
        self._draw()
        self.query_one(Lineage).focus()
        await asyncio.gather(self._load_relatives(), self._load_picture())

    def _draw(self) -> None:
        detail = self.detail or {}
        taxon = dict(detail.get("taxon") or {})
        title = Text()
        common = detail.get("preferredCommonName")
        if common:
            title.append(common, style="bold")
            fell_back = fallback_language(detail, self.browser.lang)
            if fell_back:
                title.append(f" [{language_label(fell_back)}]", style="dim")
            title.append("\n")
        title.append_text(scientific(taxon))
        if taxon.get("author"):
            title.append(f"  {taxon['author']}", style="dim")
            if taxon.get("year"):
                title.append(f", {taxon['year']}", style="dim")
        self.query_one("#title", Static).update(title)
        path = list(detail.get("lineage") or []) + [taxon]
        self.query_one(Lineage).show(path)
        self._draw_facts()
        self.query_one("#names", Static).update(self._names_text(detail))
        traits = detail.get("traits") or []
        self.query_one("#traits", Static).update(
            Text("\n").join(Text.assemble((f"{t.get('key')}: ", "bold"), str(t.get("value")) + (f" {t['unit']}" if t.get("unit") else ""))
                            for t in traits) if traits else Text("No traits recorded.", style="dim"))
        references = detail.get("references") or []
        self.query_one("#references", Static).update(
            Text("\n").join(Text(f"• {r.get('citation')}" + (f"\n  {r['url']}" if r.get("url") else ""))
                            for r in references) if references else Text("None.", style="dim"))

    def _draw_facts(self) -> None:
        detail = self.detail or {}
        taxon = detail.get("taxon") or {}
        facts = Text()
        facts.append("Rank: ", style="bold")
        facts.append(f"{taxon.get('rank') or 'unranked clade'}\n")
        facts.append("Status: ", style="bold")
        facts.append(f"{taxon.get('status', '—')}\n")
        facts.append("Conservation: ", style="bold")
        facts.append(conservation_words(taxon.get("conservationStatus")) + "\n")
        if detail.get("childCount"):
            facts.append("Children: ", style="bold")
            facts.append(f"{detail['childCount']}\n")
        facts.append("Favourite: ", style="bold")
        if self.is_favourite:
            facts.append("♥ yes", style="bold red")
        else:
            facts.append("♡ no", style="dim")
        facts.append("  (press f to change)", style="dim")
        self.query_one("#facts", Static).update(facts)

    @staticmethod
    def _names_text(detail: Dict[str, Any]) -> Text:
        text = Text()
        for lang, names in sorted((detail.get("names") or {}).items()):
            text.append(f"{language_label(lang)}: ", style="bold")
            text.append(", ".join(n.get("name", "") + (" ★" if n.get("isPreferred") else "")
                                  for n in names) + "\n")
        synonyms = detail.get("synonyms") or []
        if synonyms:
            text.append("Synonyms: ", style="bold")
            text.append(", ".join(s.get("name", "") for s in synonyms), style="italic")
        text.rstrip()
        return text if text.plain else Text("No common names recorded.", style="dim")

    async def _load_relatives(self) -> None:
        options = self.query_one("#relatives", OptionList)
        options.clear_options()
        taxon = (self.detail or {}).get("taxon") or {}
        if taxon.get("rank") != "species":
            options.add_option(Option(Text("Relatives are listed for species.", style="dim"),
                                      disabled=True))
            return
        try:
            result = await self.browser.call("compare/relatives", id=self.taxon_id, n=8,
                                             lang=self.browser.lang)
        except NotPossible:
            return
        for relative in result.get("relatives", []):
            line = taxon_label(relative, self.browser.lang, show_rank=False)
            line.append(f"  {relative.get('distance')} steps apart, both in "
                        f"{relative.get('lca', {}).get('scientificName')}", style="dim")
            options.add_option(Option(line, id=str(relative["taxon"]["id"])))

    async def _load_picture(self) -> None:
        widget = self.query_one("#picture", Static)
        image = await self.browser.call("media/image", taxonId=self.taxon_id)
        if not image:
            widget.update(Text("No picture.\nInstall a media pack to see one.", style="dim"))
            return
        try:
            data = base64.b64decode(image.get("data", ""), validate=False)
        except (binascii.Error, ValueError):
            data = b""
        drawing = half_blocks(data, image.get("mimeType", ""), max_columns=40)
        caption = Text()
        fallback = image.get("fallbackFrom")
        if fallback:
            caption.append("Picture of the genus\n", style="italic")
        caption.append(f"{image.get('credit', '')} · {image.get('license', '')}", style="dim")
        if drawing is None:
            widget.update(Text.assemble(
                (f"[picture: {image.get('mimeType')}, {image.get('width')}×{image.get('height')}]\n"
                 "This terminal view cannot draw it.\n", ""), caption))
        else:
            widget.update(Text.assemble(drawing, "\n", caption))

    @on(OptionList.OptionSelected, "#relatives")
    def _relative(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.browser.open_detail(int(event.option.id), replace=True)

    def action_open_lineage(self, index: int) -> None:
        path = self.query_one(Lineage).path
        if 0 <= index < len(path) and path[index].get("id") != self.taxon_id:
            self.browser.open_detail(int(path[index]["id"]), replace=True)

    def action_parent(self) -> None:
        path = self.query_one(Lineage).path
        if len(path) >= 2:
            self.action_open_lineage(len(path) - 2)

    def action_back(self) -> None:
        self.dismiss()

    def action_compare(self, slot: str) -> None:
        if self.detail:
            self.browser.set_compare_slot(slot, self.detail["taxon"])
            self.notify(f"{short_name(self.detail['taxon'])} is now {slot.upper()} in Compare.")

    @work(group="favourite")
    @guarded
    async def action_toggle_favourite(self) -> None:
        result = await self.browser.call("favorites/toggle", taxonId=self.taxon_id)
        self.is_favourite = bool(result.get("isFavorite"))
        self._draw_facts()
