"""Draws the README's screenshots of ``stol-client browse``: each main screen on the embedded
database, exported as SVG by Textual into this folder.

    clients/python-example/.venv-tui/bin/python clients/python-example/docs/make_screenshots.py ENGINE
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from textual.widgets import DataTable, Input  # noqa: E402

from stol_client.tui.app import BrowserApp  # noqa: E402
from stol_client.tui.compare_pane import ComparePane  # noqa: E402
from stol_client.tui.detail_screen import DetailScreen  # noqa: E402
from stol_client.tui.favourites_pane import FavouritesPane  # noqa: E402
from stol_client.tui.search_pane import SearchPane  # noqa: E402
from stol_client.tui.settings_pane import SettingsPane  # noqa: E402
from stol_client.tui.tree_pane import TaxonRow, TaxonTree  # noqa: E402

SIZE = (110, 32)


async def until(pilot, predicate, timeout: float = 30.0) -> object:
    for _ in range(int(timeout / 0.05)):
        try:
            value = predicate()
        except Exception:
            value = None
        if value:
            return value
        await pilot.pause(0.05)
    raise TimeoutError("the screen never got there")


async def first_id(app: BrowserApp, name: str) -> int:
    result = await app.call("search/query", query=name, limit=5)
    return next(r["id"] for r in result["results"] if r["scientificName"] == name)


async def shoot(pilot, name: str) -> None:
    for box in pilot.app.query(Input):
        box.cursor_blink = False
    await pilot.pause(0.3)
    pilot.app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    print(f"wrote {HERE / (name + '.svg')}")


async def main(engine: str) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        app = BrowserApp(engine, data_dir=data_dir)
        async with app.run_test(size=SIZE) as pilot:
            tree = app.query_one(TaxonTree)
            await until(pilot, lambda: tree.root.children)
            node = tree.root
            for name in ("Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae"):
                node = await until(pilot, lambda n=node, name=name: next(
                    (c for c in n.children
                     if isinstance(c.data, TaxonRow) and c.data.taxon["scientificName"] == name), None))
                node.expand()
            await until(pilot, lambda: len(node.children) > 1)
            tree.move_cursor(node)
            await shoot(pilot, "tree")

            await pilot.press("f2", *"bear")
            pane = app.query_one(SearchPane)
            await until(pilot, lambda: pane.shown_query == "bear" and pane.pictures is not None)
            app.query_one(DataTable).focus()
            await shoot(pilot, "search")

            for name in ("Panthera leo", "Panthera tigris", "Ailuropoda melanoleuca"):
                await app.call("favorites/add", taxonId=await first_id(app, name))
            app.open_detail(await first_id(app, "Ailuropoda melanoleuca"))  # a bundled photograph
            screen = await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                                 and app.screen.detail and app.screen)
            await until(pilot, lambda: screen.query_one("#relatives").option_count)
            await until(pilot, lambda: screen.query_one("#picture").display)
            await shoot(pilot, "detail")
            await pilot.press("escape")

            await pilot.press("f3")
            compare = app.query_one(ComparePane)
            for slot, name in (("a", "Panthera leo"), ("b", "Felis catus")):
                result = await app.call("search/query", query=name, limit=5)
                compare.set_slot(slot, next(r for r in result["results"]
                                            if r["scientificName"] == name))
            await until(pilot, lambda: compare.result)
            app.set_focus(None)
            await shoot(pilot, "compare")

            await pilot.press("f4")
            favourites = app.query_one(FavouritesPane)
            await until(pilot, lambda: len(favourites.favourites) == 3)
            favourites.query_one(DataTable).focus()
            await shoot(pilot, "favourites")

            await pilot.press("f5")
            settings = app.query_one(SettingsPane)
            await until(pilot, lambda: settings.answers.get("about"))
            await shoot(pilot, "settings")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
