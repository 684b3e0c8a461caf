"""The Tree tab: the tree of life from its roots down, loading children a page at a time, those
with a picture marked (one ``media/image {taxonIds}`` call a page)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from .base import EnginePane, browser_of, guarded
from .picture_marks import picture_mark, pictures_of
from .styled import breadcrumb, taxon_label


@dataclass
class TaxonRow:
    """A row of the tree that is a taxon; ``loaded`` once its first page of children was asked,
    ``marked`` once the engine said whether it has a ``picture``."""

    taxon: Dict[str, Any]
    loaded: bool = False
    marked: bool = False
    picture: Optional[Dict[str, Any]] = None


@dataclass
class MoreRow:
    """The row that ends a partial page: moving onto it loads the page from ``cursor``."""

    cursor: str
    loading: bool = False


Row = Union[TaxonRow, MoreRow]


class TaxonTree(Tree[Row]):
    """The tree widget; ``d`` opens the highlighted taxon's detail."""

    BINDINGS = [("d", "open_detail", "Detail")]

    def action_open_detail(self) -> None:
        node = self.cursor_node
        if node is not None and isinstance(node.data, TaxonRow):
            browser_of(self).open_detail(node.data.taxon["id"])


class TreePane(EnginePane):
    """Rows show rank, scientific name (italic), common name and conservation badge; the
    breadcrumb above shows the path to the highlighted row. Enter expands, or opens a species."""

    DEFAULT_CSS = """
    TreePane #crumbs { height: 1; padding: 0 1; background: $boost; }
    TreePane TaxonTree { height: 1fr; }
    """

    _focused_once = False

    def compose(self) -> ComposeResult:
        yield Static("", id="crumbs")
        tree: TaxonTree = TaxonTree("Tree of life", id="taxa")
        tree.show_root = False
        tree.guide_depth = 3
        yield tree

    def reload(self) -> None:
        self.load_roots()

    @work(exclusive=True, group="tree")
    @guarded
    async def load_roots(self) -> None:
        result = await self.browser.call("taxon/roots", lang=self.browser.lang)
        tree = self.query_one(TaxonTree)
        tree.clear()
        for taxon in result.get("roots", []):
            self._add_taxon(tree.root, taxon)
        tree.root.expand()
        tree.move_cursor_to_line(0)
        if not self._focused_once:
            self._focused_once = True  # at start only: later reloads leave the focus alone
            tree.focus()

    def _add_taxon(self, parent: TreeNode[Row], taxon: Dict[str, Any]) -> TreeNode[Row]:
        expandable = bool(taxon.get("childCount"))
        return parent.add(taxon_label(taxon, self.browser.lang), data=TaxonRow(taxon),
                          allow_expand=expandable)

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded) -> None:
        row = event.node.data
        if isinstance(row, TaxonRow) and not row.loaded:
            row.loaded = True
            self.load_page(event.node, None)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted) -> None:
        node = event.node
        row = node.data
        if isinstance(row, MoreRow) and not row.loading and node.parent is not None:
            # The user scrolled down to the end of a page: fetch the next one.
            row.loading = True
            self.load_page(node.parent, node)
        self.query_one("#crumbs", Static).update(breadcrumb(self.path_to(node)))

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected) -> None:
        row = event.node.data
        if isinstance(row, TaxonRow) and not row.taxon.get("childCount"):
            self.browser.open_detail(row.taxon["id"])

    def path_to(self, node: Optional[TreeNode[Row]]) -> List[Dict[str, Any]]:
        """The taxa from the root down to ``node``."""
        path = []
        while node is not None:
            if isinstance(node.data, TaxonRow):
                path.append(node.data.taxon)
            node = node.parent
        return list(reversed(path))

    @work(group="tree-pages")
    @guarded
    async def load_page(self, parent: TreeNode[Row], more: Optional[TreeNode[Row]]) -> None:
        assert isinstance(parent.data, TaxonRow)
        more_row = more.data if more is not None and isinstance(more.data, MoreRow) else None
        params: Dict[str, Any] = {"id": parent.data.taxon["id"], "limit": self.browser.page_size,
                                  "lang": self.browser.lang}
        if more_row is not None:
            params["cursor"] = more_row.cursor
        try:
            result = await self.browser.call("taxon/children", **params)
        finally:
            if more_row is not None:
                more_row.loading = False
        tree = self.query_one(TaxonTree)
        was_on_more = more is not None and tree.cursor_node is more
        if more is not None:
            more.remove()
        added = [self._add_taxon(parent, taxon) for taxon in result.get("children", [])]
        first = added[0] if added else None
        next_cursor = result.get("nextCursor")
        if next_cursor:
            shown = sum(1 for child in parent.children if isinstance(child.data, TaxonRow))
            label = Text(f"… more below {shown} (scroll down or press Enter)", style="dim italic")
            parent.add_leaf(label, data=MoreRow(next_cursor))
        if was_on_more and first is not None:
            tree.move_cursor(first)
        await self._mark_pictures(added)

    async def _mark_pictures(self, nodes: List[TreeNode[Row]]) -> None:
        """Mark the rows of a page whose taxon has a picture."""
        rows = [(node, node.data) for node in nodes if isinstance(node.data, TaxonRow)]
        pictures = await pictures_of(self.browser, [row.taxon["id"] for _, row in rows])
        for node, row in rows:
            row.picture, row.marked = pictures.get(row.taxon["id"]), True
            if row.picture:
                label = taxon_label(row.taxon, self.browser.lang)
                label.append(" ")
                label.append_text(picture_mark(row.picture))
                node.set_label(label)
