"""The bundled photographs in the browser, against the real engine on the embedded database: a
species' picture on its Detail screen with its author, licence and source page, none (and no
error) for a species without one, the credits in the language asked for, the hint shown without
Pillow, and the marks on the rows of the Tree, Search, Favourites and relatives lists that have a
picture (each list filled by one ``media/image {taxonIds}`` call)."""

from __future__ import annotations

import base64
import pathlib

from textual.widgets import DataTable, OptionList, Static

from conftest import engine_for_tests, find_child, plain, wait_for

from stol_client import EngineClient
from stol_client.format import picture_credits
from stol_client.tui import picture
from stol_client.tui.app import BrowserApp
from stol_client.tui.detail_screen import PICTURE_ROWS, DetailScreen, PictureView
from stol_client.tui.favourites_pane import FavouritesPane
from stol_client.tui.picture_marks import OWN_MARK
from stol_client.tui.search_pane import SearchPane
from stol_client.tui.styled import credits_text
from stol_client.tui.tree_pane import TaxonTree

SIZE = (110, 36)

#: The engine's bundled photographs, as committed.
BUNDLED = pathlib.Path(__file__).resolve().parents[3] / "Sources" / "STOLEngine" / "Resources" \
    / "BundledMedia"


def make_app(data_dir, **kwargs) -> BrowserApp:
    return BrowserApp(engine_for_tests(), data_dir=str(data_dir), **kwargs)


async def ids_of(data_dir, *names: str) -> dict:
    """Each scientific name's taxon id, and the engine's ``media/packs``, asked directly."""
    async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
        ids = {}
        for name in names:
            result = await engine.call("search/query", query=name, limit=5)
            ids[name] = next(r["id"] for r in result["results"] if r["scientificName"] == name)
        ids["packs"] = await engine.call("media/packs")
    return ids


async def opened(pilot, taxon_id: int) -> DetailScreen:
    app = pilot.app
    await wait_for(pilot, lambda: app.query_one(TaxonTree).root.children, "the roots")
    app.open_detail(taxon_id)
    return await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen)
                          and app.screen.taxon_id == taxon_id and app.screen.detail
                          and app.screen, f"the detail of {taxon_id}")


def sent_calls(sent, method: str) -> list:
    return [m["params"] for d, m in sent if d == "send" and m.get("method") == method]


async def test_the_cat_shows_its_photograph_with_author_licence_and_source(data_dir):
    ids = await ids_of(data_dir, "Felis catus")
    bundled = ids["packs"]["packs"][0]
    assert bundled["id"] == "bundled" and "Felis catus" not in bundled["unmatched"], \
        "the cat's photograph matches the embedded database"
    sent = []
    app = make_app(data_dir, trace=lambda direction, msg: sent.append((direction, msg)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, ids["Felis catus"])
        box = screen.query_one("#picture")
        view = screen.query_one(PictureView)
        await wait_for(pilot, lambda: box.display and view.drawing and view.drawing.picture,
                       "the picture")
        # The page asked for the picture with the detail, in one call.
        detail_calls = sent_calls(sent, "taxon/detail")
        assert detail_calls[-1]["include"] == ["image", "favorite"]
        assert detail_calls[-1]["imageSize"] == "thumbnail"
        assert not sent_calls(sent, "favorites/contains")

        # It is the engine's photograph of the cat (the committed thumbnail), drawn in half
        # blocks as wide as its box and no taller than PICTURE_ROWS.
        image = screen.detail["image"]
        assert image["taxonId"] == ids["Felis catus"] and image["mimeType"] == "image/jpeg"
        shipped = (BUNDLED / "thumbnail" / "cat.jpg").read_bytes()
        assert base64.b64decode(image["data"]) == shipped
        columns = view.content_size.width
        rows = plain(view).splitlines()
        assert 40 <= columns == len(rows[0]) and all(line == "▀" * columns for line in rows)
        assert 0 < len(rows) <= PICTURE_ROWS
        expected = picture.draw(shipped, "image/jpeg", columns, PICTURE_ROWS).picture
        assert view.drawing.picture == expected
        colours = {span.style.color.triplet for span in view.drawing.picture.spans}
        assert len(colours) > 50, "a photograph, not a flat block"

        # Beside it: the photographer, the licence and the source page (a link).
        credits = screen.query_one("#credits", Static)
        assert plain(credits).splitlines() == [
            "Photo: Loliloli, Wikimedia Commons",
            "Licence: Public Domain",
            "Source: commons.wikimedia.org/wiki/File:Spielendes_Kätzchen.JPG",
        ]
        links = {span.style.link for span in credits.render().spans if span.style.link}
        assert links == {"https://commons.wikimedia.org/wiki/File:Spielendes_K%C3%A4tzchen.JPG"}
        assert app.messages == []


async def test_a_species_without_a_photograph_shows_no_picture_and_no_error(data_dir):
    ids = await ids_of(data_dir, "Panthera leo")
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, ids["Panthera leo"])
        await wait_for(pilot, lambda: screen.query_one("#relatives", OptionList).option_count,
                       "relatives")
        assert screen.detail["image"] is None
        assert not screen.query_one("#picture").display
        assert plain(screen.query_one("#drawing", Static)) == ""
        assert app.messages == []
        # The facts take the width the picture would have had.
        assert screen.query_one("#facts").size.width > SIZE[0] // 2


async def test_the_credits_follow_the_language(data_dir):
    """The page is asked for in the chosen language and shows the engine's words for the
    picture's credits as it gives them in that language; switching language while the page is
    open draws it again, picture and credits included."""
    ids = await ids_of(data_dir, "Felis catus")
    async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
        german = await engine.call("taxon/detail", id=ids["Felis catus"], lang="de",
                                   include=["image"])
    sent = []
    app = make_app(data_dir, trace=lambda direction, msg: sent.append((direction, msg)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, ids["Felis catus"])
        await wait_for(pilot, lambda: screen.query_one("#picture").display, "the picture")
        await wait_for(pilot, lambda: app._languages_probed, "the languages")
        app.set_language("de")
        await wait_for(pilot, lambda: plain(screen.query_one("#title", Static)).startswith(
            german["preferredCommonName"]), "the German page")
        assert sent_calls(sent, "taxon/detail")[-1]["lang"] == "de"
        credits = plain(screen.query_one("#credits", Static))
        assert credits == credits_text(picture_credits(german["image"])).plain
        assert german["image"]["credit"] in credits and german["image"]["license"] in credits
        assert screen.query_one(PictureView).drawing.picture is not None


async def test_without_pillow_the_credits_show_and_a_hint_says_what_to_install(data_dir,
                                                                              monkeypatch):
    ids = await ids_of(data_dir, "Felis catus")
    monkeypatch.setattr(picture, "pillow", lambda: None)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, ids["Felis catus"])
        await wait_for(pilot, lambda: screen.query_one("#picture").display, "the picture box")
        drawing = plain(screen.query_one("#drawing", Static))
        assert drawing == picture.INSTALL_PILLOW and "install Pillow" in drawing
        assert "▀" not in drawing
        assert "Photo: Loliloli, Wikimedia Commons" in plain(screen.query_one("#credits", Static))
        assert app.messages == []


async def test_lists_mark_the_taxa_with_a_picture_with_one_call_each(data_dir):
    ids = await ids_of(data_dir, "Felis catus", "Panthera leo", "Ursus maritimus")
    sent = []
    app = make_app(data_dir, trace=lambda direction, msg: sent.append((direction, msg)))
    async with app.run_test(size=SIZE) as pilot:
        # Search: the polar bear is marked, the brown bear is not; one call for the results.
        await wait_for(pilot, lambda: app.query_one(TaxonTree).root.children, "the roots")
        await pilot.press("f2", *"bear")
        pane = app.query_one(SearchPane)
        await wait_for(pilot, lambda: pane.shown_query == "bear" and pane.pictures is not None,
                       "the marked results")
        table = app.query_one("#results", DataTable)
        marks = {row["scientificName"]: table.get_cell(str(row["id"]), pane.mark_column).plain
                 for row in pane.results}
        assert marks["Ursus maritimus"] == OWN_MARK and marks["Ursus arctos"] == " "
        assert set(pane.pictures) == {ids["Ursus maritimus"]}
        # (one call a list: the last for these results; the earlier ones for "b", "be"…)
        calls = sent_calls(sent, "media/image")
        assert calls and all("taxonIds" in p and p["size"] == "thumbnail" for p in calls)
        assert calls[-1]["taxonIds"] == [row["id"] for row in pane.results]
        assert len(calls) <= len("bear")
        assert OWN_MARK in plain(app.query_one("#search-status", Static))

        # Favourites: the cat is marked, the lion is not.
        for name in ("Felis catus", "Panthera leo"):
            await app.call("favorites/add", taxonId=ids[name])
        await pilot.press("f4")
        favourites = app.query_one(FavouritesPane)
        await wait_for(pilot, lambda: len(favourites.favourites) == 2, "the favourites")
        fav_table = favourites.query_one(DataTable)
        assert fav_table.get_cell(str(ids["Felis catus"]), fav_table.ordered_columns[0].key).plain \
            == OWN_MARK
        assert fav_table.get_cell(str(ids["Panthera leo"]), fav_table.ordered_columns[0].key).plain \
            == " "

        # Tree: in the genus Felis, the cat's row is marked once its page is loaded.
        await pilot.press("f1")
        tree = app.query_one(TaxonTree)
        node = tree.root
        for name in ("Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae",
                     "Felis"):
            node = await wait_for(pilot, lambda n=node, name=name: find_child(n, name), name)
            node.expand()
        cat = await wait_for(pilot, lambda: find_child(node, "Felis catus"), "the cat's row")
        await wait_for(pilot, lambda: cat.data.marked, "the cat's mark")
        assert cat.data.picture["taxonId"] == ids["Felis catus"]
        assert str(cat.label).endswith(OWN_MARK)

        # The lion's relatives: the jaguar and the cat have photographs, and are marked.
        screen = await opened(pilot, ids["Panthera leo"])
        relatives = screen.query_one("#relatives", OptionList)
        await wait_for(pilot, lambda: relatives.option_count, "relatives")
        prompts = {str(relatives.get_option_at_index(i).prompt)
                   for i in range(relatives.option_count)}
        assert any(p.startswith(OWN_MARK) and "Panthera onca" in p for p in prompts), prompts
        assert any(p.startswith(" ") and "Panthera tigris" in p for p in prompts), prompts
        assert app.messages == []


async def test_trait_names_follow_the_language(data_dir):
    """The Detail screen names each trait by the engine's ``label`` in the chosen language
    (``Ernährung``, not ``diet``), with the value as the engine gives it in that language."""
    ids = await ids_of(data_dir, "Panthera leo")
    async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
        german = await engine.call("taxon/detail", id=ids["Panthera leo"], lang="de")
    labelled = [t for t in german["traits"] if t.get("label") and t["label"] != t["key"]]
    assert labelled, "the engine gives German trait labels for the lion"
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, ids["Panthera leo"])
        await wait_for(pilot, lambda: app._languages_probed, "the languages")
        app.set_language("de")
        await wait_for(pilot, lambda: plain(screen.query_one("#title", Static)).startswith(
            german["preferredCommonName"]), "the German page")
        traits = plain(screen.query_one("#traits", Static))
        for trait in labelled:
            assert f"{trait['label']}: {trait['value']}" in traits
            assert f"{trait['key']}: " not in traits
