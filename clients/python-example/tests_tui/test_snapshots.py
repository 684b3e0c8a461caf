"""Snapshot tests of the main screens' layout (pytest-textual-snapshot).

The engine serves the small fixture database (``--database``), so the pictures do not change when
the embedded dataset or search ranking does. Update them after an intended change with
``pytest tests_tui/test_snapshots.py --snapshot-update`` and look at the SVGs before committing.
"""

from __future__ import annotations

import traceback

from textual.widgets import DataTable, Input, OptionList

from conftest import engine_for_tests, find_child, plain, wait_for

from stol_client.tui.app import BrowserApp
from stol_client.tui.compare_pane import ComparePane
from stol_client.tui.detail_screen import DetailScreen
from stol_client.tui.favourites_pane import FavouritesPane
from stol_client.tui.search_pane import SearchPane
from stol_client.tui.tree_pane import TaxonTree

SIZE = (100, 30)


def fixture_app(kit, data_dir) -> BrowserApp:
    return BrowserApp(engine_for_tests(), data_dir=str(data_dir),
                      engine_args=["--database", str(kit.database)])


async def ready(pilot) -> BrowserApp:
    app = pilot.app
    await wait_for(pilot, lambda: app.query_one(TaxonTree).root.children, "the roots")
    await wait_for(pilot, lambda: app._languages_probed, "the language probe")
    return app


async def id_of(app: BrowserApp, name: str) -> int:
    result = await app.call("search/query", query=name, limit=5)
    return next(r["id"] for r in result["results"] if r["scientificName"] == name)


def safely(run_before):
    """``run_before`` that, when it fails, prints why and ends the app (a failure inside
    ``snap_compare``'s pilot would otherwise leave the app running and the test hanging); the
    comparison then fails for want of a screenshot."""

    async def wrapper(pilot) -> None:
        try:
            await run_before(pilot)
        except BaseException:
            traceback.print_exc()
            pilot.app.exit()

    return wrapper


async def still(pilot) -> None:
    """No blinking cursor in the picture."""
    for box in pilot.app.query(Input):
        box.cursor_blink = False
    await pilot.pause()


def test_tree_snapshot(snap_compare, kit, data_dir):
    async def run_before(pilot):
        app = await ready(pilot)
        tree = app.query_one(TaxonTree)
        path = ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera"]
        node = tree.root
        for name in path:
            node = await wait_for(pilot, lambda n=node, name=name: find_child(n, name), name)
            node.expand()
        leo = await wait_for(pilot, lambda: find_child(node, "Panthera leo"), "Panthera leo")
        await wait_for(pilot, lambda: leo.data.marked, "the page's picture marks")
        tree.move_cursor(leo)
        await still(pilot)

    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE, run_before=safely(run_before))


def test_search_snapshot(snap_compare, kit, data_dir):
    async def run_before(pilot):
        app = await ready(pilot)
        await pilot.press("f2", *"tige")
        pane = app.query_one(SearchPane)
        await wait_for(pilot, lambda: pane.shown_query == "tige" and pane.results
                       and pane.pictures is not None, "results")
        await wait_for(pilot, lambda: "Tiger" in plain(app.query_one("#suggestions")),
                       "suggestions")
        app.query_one(DataTable).focus()
        await still(pilot)

    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE, run_before=safely(run_before))


def detail_of(name: str):
    """Opens the Detail screen of ``name``, once its relatives and any picture are drawn."""

    async def run_before(pilot):
        app = await ready(pilot)
        app.open_detail(await id_of(app, name))
        screen = await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen)
                                and app.screen.detail and app.screen, "the detail")
        await wait_for(pilot, lambda: screen.query_one("#relatives", OptionList).option_count,
                       "relatives")
        if screen.detail.get("image"):
            await wait_for(pilot, lambda: "Licence" in plain(screen.query_one("#credits")),
                           "the picture's credits")
        await still(pilot)

    return run_before


def test_detail_snapshot(snap_compare, kit, data_dir):
    """The lion: no photograph ships for it, so no picture box."""
    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE,
                        run_before=safely(detail_of("Panthera leo")))


def test_detail_with_a_photograph_snapshot(snap_compare, kit, data_dir):
    """The cat: its bundled photograph in half blocks, its credits under it."""
    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE,
                        run_before=safely(detail_of("Felis catus")))


def test_compare_snapshot(snap_compare, kit, data_dir):
    async def run_before(pilot):
        app = await ready(pilot)
        await pilot.press("f3")
        pane = app.query_one(ComparePane)
        for slot, name in (("a", "Panthera leo"), ("b", "Felis catus")):
            result = await app.call("search/query", query=name, limit=5)
            pane.set_slot(slot, next(r for r in result["results"] if r["scientificName"] == name))
        await wait_for(pilot, lambda: pane.result, "the comparison")
        app.set_focus(None)
        await still(pilot)

    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE, run_before=safely(run_before))


def test_favourites_snapshot(snap_compare, kit, data_dir):
    async def run_before(pilot):
        app = await ready(pilot)
        for name in ("Panthera tigris", "Canis lupus", "Felis catus", "Panthera leo"):
            await app.call("favorites/add", taxonId=await id_of(app, name))
        await pilot.press("f4")
        pane = app.query_one(FavouritesPane)
        pane.query_one("#sort").value = "scientific"
        await wait_for(pilot, lambda: pane.sort == "scientific" and len(pane.favourites) == 4
                       and pane.favourites[0]["scientificName"] == "Canis lupus", "the list")
        pane.query_one(DataTable).focus()
        await still(pilot)

    assert snap_compare(fixture_app(kit, data_dir), terminal_size=SIZE, run_before=safely(run_before))
