"""The Detail screen of one taxon: names by language, traits, references, its lineage as a
clickable breadcrumb, closest relatives (marked when they have a picture), the favourite toggle
and its picture (a bundled photograph or one from a media pack) with its credits beside it.

The page is one ``taxon/detail`` call (``include: ["image", "favorite"]``) and, for a species, a
``compare/relatives`` call and one ``media/image {taxonIds}`` call for the relatives' marks."""

from __future__ import annotations

import base64
import binascii
from typing import Any, Dict, List, Optional, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import NotPossible
from ..format import (conservation_words, fallback_language, language_label, picture_credits,
                      short_name, taxon_id)
from .base import Browser, browser_of, guarded
from .picture import Drawing, draw
from .picture_marks import picture_mark, pictures_of
from .styled import credits_text, scientific, taxon_label

#: The tallest picture drawn, in lines (two pixel rows a line); its width is the box's.
PICTURE_ROWS = 20


class PictureView(Static):
    """A picture drawn in half blocks as wide as the widget is (drawn again when it is resized),
    or, when it cannot be drawn, why (in yellow)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._data, self._mime_type = b"", ""
        #: What was drawn last.
        self.drawing: Optional[Drawing] = None

    def show(self, data: bytes, mime_type: str) -> None:
        """Draw ``data``, a picture of type ``mime_type``."""
        self._data, self._mime_type = data, mime_type
        self._draw()

    def on_resize(self) -> None:
        if self._data:
            self._draw()

    def _draw(self) -> None:
        columns = self.content_size.width or 40  # 0 before the first layout
        self.drawing = draw(self._data, self._mime_type, columns, PICTURE_ROWS)
        self.update(self.drawing.picture if self.drawing.picture is not None
                    else Text(self.drawing.problem or "", style="yellow"))


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
    DetailScreen #facts { width: 1fr; min-width: 38; height: auto; }
    DetailScreen #picture { width: 1fr; max-width: 68; height: auto; border: round $primary;
                            padding: 0 1; display: none; }
    DetailScreen #credits { margin-top: 1; }
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
                with Vertical(id="picture"):
                    yield PictureView(id="drawing")
                    yield Static("", id="credits")
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
        detail = await app.call("taxon/detail", id=self.taxon_id, lang=app.lang,
                                include=["image", "favorite"], imageSize="thumbnail")
        self.detail = detail
        self.is_favourite = bool(detail.get("isFavorite"))
        app.note_languages(detail.get("names", {}).keys())
        self._draw()
        self.query_one(Lineage).focus()
        await self._load_relatives()

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
        self._draw_picture()
        self.query_one("#names", Static).update(self._names_text(detail))
        traits = detail.get("traits") or []
        self.query_one("#traits", Static).update(
            Text("\n").join(Text.assemble((f"{t.get('label') or t.get('key')}: ", "bold"), str(t.get("value")) + (f" {t['unit']}" if t.get("unit") else ""))
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
        relatives = result.get("relatives", [])
        pictures = await pictures_of(self.browser, [i for i in map(taxon_id, relatives) if i])
        for relative in relatives:
            line = picture_mark(pictures.get(taxon_id(relative) or 0))
            line.append(" ")
            line.append_text(taxon_label(relative, self.browser.lang, show_rank=False))
            line.append(f"  {relative.get('distance')} steps apart, both in "
                        f"{relative.get('lca', {}).get('scientificName')}", style="dim")
            options.add_option(Option(line, id=str(relative["taxon"]["id"])))

    def _draw_picture(self) -> None:
        """The taxon's picture in half blocks with its credits under it; no box at all for a
        taxon without one. A picture this terminal view cannot draw (a JPEG without Pillow)
        says what to install, and its credits are shown all the same."""
        box = self.query_one("#picture", Vertical)
        image = (self.detail or {}).get("image")
        box.display = isinstance(image, dict)
        if not isinstance(image, dict):
            return
        try:
            data = base64.b64decode(image.get("data") or "", validate=False)
        except (binascii.Error, ValueError):
            data = b""
        self.query_one(PictureView).show(data, image.get("mimeType") or "")
        self.query_one("#credits", Static).update(credits_text(picture_credits(image)))

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
