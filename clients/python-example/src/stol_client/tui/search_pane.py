"""The Search tab: autocomplete while typing, results with their common name in the browser's
language, rank, status, the name they matched by and a mark on those with a picture, and filters.

Every keystroke starts a new search and cancels the one before it (an exclusive worker: the
awaiting task is cancelled, which makes the client send ``$/cancelRequest``), so a slow answer
never holds up typing and a stale answer is never shown. The marks come after the results, from
one ``media/image {taxonIds}`` call, in the same worker.
"""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List, Optional

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Select, Static

from ..errors import EngineExited, StolClientError
from ..format import CONSERVATION, RANKS, common_name, rank_word, scientific_name
from .base import EnginePane, guarded
from .picture_marks import legend, picture_mark, pictures_of
from .styled import badge, common, scientific
from .suggester import EngineSuggester, suggest_again

#: Results asked for per search.
RESULT_LIMIT = 50


class SearchPane(EnginePane):
    """Type to search; Enter or ↓ moves to the results, Enter on a result opens it."""

    DEFAULT_CSS = """
    SearchPane #query { margin: 0 0; }
    SearchPane #filters { height: auto; }
    SearchPane #filters Select { width: 1fr; }
    SearchPane #suggestions { height: 1; padding: 0 1; color: $text-muted; }
    SearchPane #search-status { height: 1; padding: 0 1; }
    SearchPane DataTable { height: 1fr; }
    """

    BINDINGS = [Binding("down", "to_results", "Results", show=False)]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.results: List[Dict[str, Any]] = []
        #: The query whose results are on screen.
        self.shown_query: Optional[str] = None
        #: The pictures of the results on screen by taxon id, once their marks are drawn.
        self.pictures: Optional[Dict[int, Dict[str, Any]]] = None
        #: What the status line says of the results on screen.
        self.status_line = Text("")

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Search any name: lion, Panthera, Löwe… (typos are fine)",
                    id="query", suggester=EngineSuggester(self.browser, self._show_suggestions))
        yield Static("", id="suggestions")
        with Horizontal(id="filters"):
            yield Select([(rank.capitalize(), rank) for rank in RANKS], prompt="Any rank",
                         id="rank")
            yield Select([(f"{words} ({code})", code) for code, (words, _) in CONSERVATION.items()],
                         prompt="Any conservation status", id="conservation")
        yield Static("", id="search-status")
        table: DataTable = DataTable(id="results", cursor_type="row", zebra_stripes=True)
        #: The first column: ▣ on the results that have a picture.
        self.mark_column, *_ = table.add_columns(" ", "Common name", "Scientific name", "Rank",
                                                  "Status", "Matched by", "Match")
        yield table

    def reload(self) -> None:
        if self.query_one("#query", Input).value.strip():
            self.run_search()
            box = self.query_one("#query", Input)
            self.run_worker(suggest_again(box), group="suggest-again", exclusive=True)

    def focus_query(self) -> None:
        """Put the cursor in the search box."""
        self.query_one("#query", Input).focus()

    def _show_suggestions(self, value: str, texts: List[str]) -> None:
        # An answer may arrive once the pane is gone (the app closing, the engine restarted).
        boxes = self.query("#query")
        if not boxes or value != boxes.first(Input).value:
            return
        line = Text("Suggestions: ", style="dim") + Text("  ·  ").join(Text(t) for t in texts) \
            if texts else Text("")
        self.query_one("#suggestions", Static).update(line)

    @on(Input.Changed, "#query")
    def _typed(self, event: Input.Changed) -> None:
        self.run_search()

    @on(Input.Submitted, "#query")
    def _submitted(self, event: Input.Submitted) -> None:
        self.query_one(DataTable).focus()

    @on(Select.Changed)
    def _filter_changed(self, event: Select.Changed) -> None:
        self.run_search()

    def action_to_results(self) -> None:
        self.query_one(DataTable).focus()

    @on(DataTable.RowSelected, "#results")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.browser.open_detail(int(event.row_key.value))

    def _filters(self) -> Dict[str, Any]:
        params: Dict[str, Any] = {}
        for name in ("rank", "conservation"):
            value = self.query_one(f"#{name}", Select).value
            if isinstance(value, str):
                params[name] = value
        return params

    @work(exclusive=True, group="search")
    async def run_search(self) -> None:
        """Search for the box's text; a newer search cancels this one."""
        query = self.query_one("#query", Input).value
        status = self.query_one("#search-status", Static)
        if not query.strip():
            self._fill(query, [], None)
            status.update("")
            return
        status.update(Text("searching…", style="dim"))
        try:
            result = await self.browser.call("search/query", query=query, limit=RESULT_LIMIT,
                                             lang=self.browser.lang, **self._filters())
        except asyncio.CancelledError:
            raise
        except EngineExited:
            self.browser.engine_stopped()
            return
        except (StolClientError, OSError) as error:
            self.browser.show_error(error)
            status.update("")
            return
        self._fill(query, result.get("results", []), result)
        await self._mark_pictures()

    def _fill(self, query: str, results: List[Dict[str, Any]], answer: Optional[Dict[str, Any]]) -> None:
        self.results = results
        self.shown_query = query
        self.pictures = None
        table = self.query_one(DataTable)
        table.clear()
        for item in results:
            kind = item.get("matchType", "")
            matched = item.get("matchedName") or ""
            if matched in (common_name(item), scientific_name(item)):
                matched = ""  # the name it matched is already on the row
            table.add_row(Text(" "), common(item, self.browser.lang), scientific(item),
                          rank_word(item), badge(item.get("conservationStatus")), Text(matched),
                          Text(kind, style="yellow" if kind == "fuzzy" else "dim"),
                          key=str(item["id"]))
        if answer is None:
            return
        if not results:
            line = Text(f"Nothing matches “{query}”.")
        elif all(item.get("matchType") == "fuzzy" for item in results):
            line = Text(f"No exact match for “{query}”: showing names that look close.",
                        style="yellow")
        elif answer.get("fuzzy"):
            line = Text(f"{len(results)} results for “{query}”, with names that look close")
        else:
            more = "+" if answer.get("nextCursor") else ""
            noun = "result" if len(results) == 1 and not more else "results"
            line = Text(f"{len(results)}{more} {noun} for “{query}”")
        self.status_line = line
        self.query_one("#search-status", Static).update(line)

    @guarded
    async def _mark_pictures(self) -> None:
        """Mark the results that have a picture (one call for the whole list) and add what the
        mark means to the status line."""
        ids = [item["id"] for item in self.results]
        pictures = await pictures_of(self.browser, ids) if ids else {}
        table = self.query_one(DataTable)
        for taxon_id, image in pictures.items():
            table.update_cell(str(taxon_id), self.mark_column, picture_mark(image))
        self.pictures = pictures
        if pictures:
            self.query_one("#search-status", Static).update(
                Text.assemble(self.status_line, ("  ·  ", "dim"), legend(pictures.values())))
