"""The Favourites tab: the list in one of the engine's three sorts (those with a picture marked),
remove, clear all (after a confirmation) and export to a file the user names."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, DataTable, Select, Static

from .base import EnginePane, guarded
from .dialogs import ConfirmDialog, FileNameDialog
from .picture_marks import legend, picture_mark, pictures_of
from .styled import badge, common, scientific

#: The engine's sorts and what they are called here.
SORTS = [("Newest first", "recent"), ("Scientific name A–Z", "scientific"),
         ("Common name A–Z", "common")]


class FavouritesTable(DataTable):
    """The list; Delete removes the highlighted favourite, Enter opens it."""

    BINDINGS = [Binding("delete,backspace,r", "remove", "Remove")]

    def action_remove(self) -> None:
        pane = self.parent
        assert isinstance(pane, FavouritesPane)
        pane.remove_highlighted()


class FavouritesPane(EnginePane):
    """s changes the sort, e exports, c clears all (asks first)."""

    DEFAULT_CSS = """
    FavouritesPane #fav-bar { height: auto; }
    FavouritesPane #sort { width: 36; }
    FavouritesPane #fav-bar Button { margin-left: 1; }
    FavouritesPane #fav-status { height: 1; padding: 0 1; }
    FavouritesPane FavouritesTable { height: 1fr; }
    """
    BINDINGS = [Binding("s", "next_sort", "Sort"), Binding("e", "export", "Export"),
                Binding("c", "clear", "Clear all")]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.favourites: List[Dict[str, Any]] = []
        #: The pictures of the favourites on screen, by taxon id.
        self.pictures: Dict[int, Dict[str, Any]] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="fav-bar"):
            yield Select(SORTS, value="recent", allow_blank=False, id="sort")
            yield Button("Export… (e)", id="export")
            yield Button("Clear all… (c)", id="clear", variant="error")
        yield Static("", id="fav-status")
        table = FavouritesTable(id="favourites-table", cursor_type="row", zebra_stripes=True)
        table.add_columns(" ", "Scientific name", "Common name", "Rank", "Status")
        yield table

    @property
    def sort(self) -> str:
        value = self.query_one("#sort", Select).value
        return value if isinstance(value, str) else "recent"

    def reload(self) -> None:
        self.load()

    @on(Select.Changed, "#sort")
    def _sorted(self) -> None:
        self.load()

    def action_next_sort(self) -> None:
        keys = [key for _, key in SORTS]
        self.query_one("#sort", Select).value = keys[(keys.index(self.sort) + 1) % len(keys)]

    @work(exclusive=True, group="favourites")
    @guarded
    async def load(self) -> None:
        result = await self.browser.call("favorites/list", sort=self.sort, lang=self.browser.lang)
        favourites = result.get("favorites", [])
        self.pictures = await pictures_of(
            self.browser, [fav["taxonId"] for fav in favourites if fav.get("available")])
        self.favourites = favourites
        table = self.query_one(FavouritesTable)
        row = table.cursor_row
        table.clear()
        for fav in self.favourites:
            if fav.get("available"):
                table.add_row(picture_mark(self.pictures.get(fav["taxonId"])), scientific(fav),
                              common(fav, self.browser.lang), fav.get("rank") or "",
                              badge(fav.get("conservationStatus")), key=str(fav["taxonId"]))
            else:
                table.add_row(Text(" "), Text(f"#{fav['taxonId']}", style="dim"),
                              Text("not in the active database", style="dim"), "", "",
                              key=str(fav["taxonId"]))
        if self.favourites:
            table.move_cursor(row=min(row, len(self.favourites) - 1))
        count = len(self.favourites)
        status = Text(f"{count} favourite{'s' if count != 1 else ''}")
        if self.pictures:
            status.append("  ·  ", style="dim")
            status.append_text(legend(self.pictures.values()))
        self.query_one("#fav-status", Static).update(
            status if count
            else Text("No favourites yet: press f on a species' Detail screen.", style="dim"))

    @on(DataTable.RowSelected, "#favourites-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.browser.open_detail(int(event.row_key.value))

    def highlighted_id(self) -> Optional[int]:
        """The taxon id of the highlighted row."""
        table = self.query_one(FavouritesTable)
        if not self.favourites or table.cursor_row < 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return int(row_key.value) if row_key.value else None

    def remove_highlighted(self) -> None:
        taxon_id = self.highlighted_id()
        if taxon_id is not None:
            self.remove(taxon_id)

    @work(group="favourites-change")
    @guarded
    async def remove(self, taxon_id: int) -> None:
        await self.browser.call("favorites/remove", taxonId=taxon_id)
        self.load()

    @on(Button.Pressed, "#clear")
    def action_clear(self) -> None:
        if not self.favourites:
            self.browser.show_message("There are no favourites to clear.")
            return

        def answered(yes: Optional[bool]) -> None:
            if yes:
                self.clear_all()

        self.app.push_screen(ConfirmDialog(
            f"Remove all {len(self.favourites)} favourites? This cannot be undone.",
            yes="Remove all"), answered)

    @work(group="favourites-change")
    @guarded
    async def clear_all(self) -> None:
        result = await self.browser.call("favorites/clear")
        self.browser.show_message(f"Removed {result.get('removed', 0)} favourites.")
        self.load()

    @on(Button.Pressed, "#export")
    def action_export(self) -> None:
        def answered(name: Optional[str]) -> None:
            if name:
                self.export_to(name)

        self.app.push_screen(FileNameDialog("Export favourites to which file?",
                                            default=os.path.join(os.getcwd(), "favourites.txt")),
                             answered)

    @work(group="favourites-export")
    @guarded
    async def export_to(self, name: str) -> None:
        result = await self.browser.call("favorites/export", sort=self.sort, lang=self.browser.lang)
        path = os.path.abspath(os.path.expanduser(name))
        with open(path, "w", encoding="utf-8") as out:
            out.write(result.get("text", ""))
        self.browser.show_message(f"Saved {len(self.favourites)} favourites to {path}")
