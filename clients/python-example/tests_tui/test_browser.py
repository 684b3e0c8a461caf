"""The browser driven with Textual's headless pilot against the real engine on the embedded
database (and, for imports, a signed fixture file): every screen, errors, crash and restart."""

from __future__ import annotations

import os
import signal
import subprocess

from textual.widgets import DataTable, Input, OptionList, Static, TabbedContent

from conftest import engine_for_tests, find_child, plain, png, wait_for

from stol_client import EngineClient
from stol_client.tui.app import BrowserApp
from stol_client.tui.compare_pane import ComparePane
from stol_client.tui.detail_screen import DetailScreen, Lineage
from stol_client.tui.dialogs import ConfirmDialog, FileNameDialog, LanguageDialog
from stol_client.tui.favourites_pane import FavouritesPane
from stol_client.tui.search_pane import SearchPane
from stol_client.tui.settings_pane import SettingsPane
from stol_client.tui.tree_pane import MoreRow, TaxonRow, TaxonTree

SIZE = (110, 36)


def make_app(data_dir, **kwargs) -> BrowserApp:
    return BrowserApp(engine_for_tests(), data_dir=str(data_dir), **kwargs)


def node_names(parent) -> list:
    return [n.data.taxon["scientificName"] for n in parent.children if isinstance(n.data, TaxonRow)]


async def started(pilot) -> BrowserApp:
    app = pilot.app
    await wait_for(pilot, lambda: app.query_one(TaxonTree).root.children, "the roots")
    return app


async def open_detail(pilot, taxon_id: int) -> DetailScreen:
    app = pilot.app
    app.open_detail(taxon_id)
    screen = await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen)
                            and app.screen.taxon_id == taxon_id and app.screen.detail
                            and app.screen, f"the detail of {taxon_id}")
    return screen


async def lion_id(data_dir) -> int:
    """Panthera leo's id, asked of the engine directly."""
    async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
        result = await engine.call("search/query", query="Panthera leo", limit=5)
    return next(r["id"] for r in result["results"] if r["scientificName"] == "Panthera leo")


async def search_hit(app: BrowserApp, name: str) -> dict:
    """The ``search/query`` result for the scientific name ``name``."""
    result = await app.call("search/query", query=name, limit=5)
    return next(r for r in result["results"] if r["scientificName"] == name)


async def compare_tab(pilot) -> ComparePane:
    """Show the Compare tab (F3); its pane."""
    await pilot.press("f3")
    return pilot.app.query_one(ComparePane)


async def pick_language(pilot, code: str) -> LanguageDialog:
    """Choose ``code`` in the language picker (F6), once the database's languages are known;
    returns the picker (closed by then)."""
    app = pilot.app
    await wait_for(pilot, lambda: app._languages_probed, "the languages")
    await pilot.press("f6")
    dialog = await wait_for(pilot, lambda: isinstance(app.screen, LanguageDialog) and app.screen,
                            "the language picker")
    dialog.query_one(OptionList).highlighted = dialog.languages.index(code)
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.lang == code, f"the language {code}")
    return dialog


async def test_tree_expands_lazily_in_pages(data_dir):
    app = make_app(data_dir)
    app.page_size = 4
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tree = app.query_one(TaxonTree)
        assert "Eukaryota" in node_names(tree.root)
        eukaryota = find_child(tree.root, "Eukaryota")
        assert eukaryota.allow_expand and not eukaryota.children, "children load only on expand"
        tree.move_cursor(eukaryota)
        await pilot.press("enter")
        await wait_for(pilot, lambda: find_child(eukaryota, "Animalia"), "Animalia")
        animalia = find_child(eukaryota, "Animalia")
        tree.move_cursor(animalia)
        await pilot.press("enter")
        await wait_for(pilot, lambda: animalia.children, "Animalia's first page")
        first_page = node_names(animalia)
        assert len(first_page) == 4
        assert isinstance(animalia.children[-1].data, MoreRow), "a 'more' row ends a partial page"
        # Scrolling down onto the 'more' row loads the next pages, never repeating a child.
        async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
            everything = await engine.call("taxon/children", id=animalia.data.taxon["id"],
                                           limit=1000)
        expected = [t["scientificName"] for t in everything["children"]]
        assert len(expected) > 8
        while isinstance(animalia.children[-1].data, MoreRow):
            more = animalia.children[-1]
            tree.move_cursor(more)
            await wait_for(pilot, lambda: more not in animalia.children, "the next page")
        assert node_names(animalia) == expected
        # The breadcrumb shows the path to the highlighted row, and 'd' opens its detail.
        tree.move_cursor(find_child(animalia, expected[0]))
        await pilot.pause()
        crumbs = plain(app.query_one("#crumbs", Static))
        assert crumbs == f"Eukaryota › Animalia › {expected[0]}"
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.detail,
                       "the detail screen")
        assert app.screen.detail["taxon"]["scientificName"] == expected[0]


async def test_search_with_a_typo_and_stale_requests_cancelled(data_dir):
    sent = []
    app = make_app(data_dir, trace=lambda direction, msg: sent.append((direction, msg)))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f2")
        pane = app.query_one(SearchPane)
        await pilot.press(*"lyon")
        await wait_for(pilot, lambda: pane.shown_query == "lyon", "results for 'lyon'")
        names = [r["scientificName"] for r in pane.results]
        assert "Panthera leo" in names
        lion = next(r for r in pane.results if r["scientificName"] == "Panthera leo")
        assert lion["matchType"] == "fuzzy"
        assert "look close" in plain(app.query_one("#search-status", Static))
        table = app.query_one(DataTable)
        assert table.row_count == len(pane.results)

        # A search still unanswered when the next key arrives is cancelled: hold the engine
        # (SIGSTOP) so the first request cannot be answered, type, and look at what was sent.
        box = app.query_one("#query", Input)
        box.value = ""
        await wait_for(pilot, lambda: pane.shown_query == "", "the cleared box")
        os.kill(app.engine.pid, signal.SIGSTOP)
        try:
            box.value = "pant"

            def search_ids(query):
                return [m["id"] for d, m in sent if d == "send" and m.get("method") == "search/query"
                        and m["params"]["query"] == query]

            await wait_for(pilot, lambda: search_ids("pant"), "the request for 'pant'")
            box.value = "panthera"
            stale = search_ids("pant")[0]
            await wait_for(pilot, lambda: ("send", {"jsonrpc": "2.0", "method": "$/cancelRequest",
                                                    "params": {"id": stale}}) in sent,
                           "$/cancelRequest for the stale search")
        finally:
            os.kill(app.engine.pid, signal.SIGCONT)
        await wait_for(pilot, lambda: pane.shown_query == "panthera", "results for 'panthera'")
        assert any(r["scientificName"].startswith("Panthera") for r in pane.results)
        # Autocomplete suggestions are listed under the box.
        await wait_for(pilot, lambda: "Panthera" in plain(app.query_one("#suggestions", Static)),
                       "suggestions")

        # The rank filter narrows the results to that rank.
        pane.query_one("#rank").value = "genus"
        await wait_for(pilot, lambda: pane.results and all(r.get("rank") == "genus"
                                                           for r in pane.results), "genus only")
        # Enter on a result opens its detail.
        table = app.query_one(DataTable)
        table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.detail,
                       "the detail screen")
        assert app.screen.detail["taxon"]["rank"] == "genus"


async def test_detail_shows_everything_and_toggles_the_favourite(data_dir):
    lion = await lion_id(data_dir)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_detail(pilot, lion)
        names = plain(screen.query_one("#names", Static))
        assert "Español (es): León" in names
        assert "Synonyms: Felis leo" in names
        assert "diet:" in plain(screen.query_one("#traits", Static))
        assert "Linnaeus" in plain(screen.query_one("#references", Static))
        assert "Vulnerable (VU)" in plain(screen.query_one("#facts", Static))
        lineage = screen.query_one(Lineage)
        path = [t["scientificName"] for t in lineage.path]
        assert path[0] == "Eukaryota" and path[-2:] == ["Panthera", "Panthera leo"]
        relatives = screen.query_one("#relatives", OptionList)
        await wait_for(pilot, lambda: relatives.option_count, "relatives")
        assert "Panthera" in str(relatives.get_option_at_index(0).prompt)
        # No photograph ships for the lion: no picture box, and nothing said about it.
        assert not screen.query_one("#picture").display
        assert app.messages == []

        # f toggles the favourite, as the engine confirms.
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.is_favourite, "the favourite on")
        assert (await app.call("favorites/contains", taxonId=lion))["isFavorite"] is True
        assert "♥ yes" in plain(screen.query_one("#facts", Static))
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.is_favourite is False, "the favourite off")
        assert (await app.call("favorites/contains", taxonId=lion))["isFavorite"] is False

        # The lineage is a breadcrumb: ← then Enter opens the genus.
        lineage.focus()
        await pilot.press("left", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.detail
                       and app.screen.detail["taxon"]["scientificName"] == "Panthera", "Panthera")
        # u goes up to the parent, Esc goes back to the tabs.
        await pilot.press("u")
        await wait_for(pilot, lambda: app.screen.detail
                       and app.screen.detail["taxon"]["scientificName"] == "Felidae", "Felidae")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen), "the tabs")


async def test_compare_two_species(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        pane = await compare_tab(pilot)
        app.query_one("#a", Input).focus()
        await pilot.press(*"Panthera leo", "enter")
        await wait_for(pilot, lambda: pane.slots["a"], "A")
        assert app.focused is app.query_one("#b", Input)
        await pilot.press(*"Panthera tigris", "enter")
        await wait_for(pilot, lambda: pane.result, "the comparison")
        assert pane.slots["a"]["scientificName"] == "Panthera leo"
        assert pane.slots["b"]["scientificName"] == "Panthera tigris"
        assert pane.result["taxonomicDistance"] == 2
        drawing = plain(app.query_one("#drawing", Static)).splitlines()
        assert drawing[0].startswith("genus Panthera") and "common ancestor" in drawing[0]
        assert drawing[1].startswith("├─ species Panthera leo") and drawing[1].endswith("A")
        assert drawing[2].startswith("└─ species Panthera tigris") and drawing[2].endswith("B")
        text = "\n".join(drawing)
        assert "Distance: 2 steps" in text
        assert "Shared clade: Both are in genus Panthera" in text
        assert "Traits:" in text


async def test_favourites_sorts_remove_export_and_clear(data_dir, tmp_path):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        ids = {}
        added = ("Canis lupus", "Panthera tigris", "Ursus maritimus")
        for name in added:
            ids[name] = (await search_hit(app, name))["id"]
            await app.call("favorites/add", taxonId=ids[name])
        await pilot.press("f4")
        pane = app.query_one(FavouritesPane)
        await wait_for(pilot, lambda: len(pane.favourites) == 3, "three favourites")

        def shown():
            return [f.get("scientificName") for f in pane.favourites]

        assert shown() == list(reversed(added))  # newest first
        common = {f["scientificName"]: f["commonName"] for f in pane.favourites}
        by_common = sorted(added, key=lambda name: common[name].casefold())
        assert by_common != sorted(added), "the fixture must tell the two name sorts apart"
        app.query_one("#favourites-table", DataTable).focus()
        await pilot.press("s")
        await wait_for(pilot, lambda: pane.sort == "scientific" and shown() == sorted(added),
                       "the scientific sort")
        await pilot.press("s")
        await wait_for(pilot, lambda: pane.sort == "common" and shown() == by_common,
                       "the common-name sort")
        table = app.query_one("#favourites-table", DataTable)
        assert table.row_count == 3
        # Delete removes the highlighted one.
        table.move_cursor(row=shown().index("Ursus maritimus"))
        await pilot.press("delete")
        await wait_for(pilot, lambda: len(pane.favourites) == 2, "two favourites")
        assert "Ursus maritimus" not in shown()
        assert (await app.call("favorites/contains",
                               taxonId=ids["Ursus maritimus"]))["isFavorite"] is False

        # Export to a file the user names.
        target = tmp_path / "my favourites.txt"
        await pilot.press("e")
        dialog = await wait_for(pilot, lambda: isinstance(app.screen, FileNameDialog) and app.screen,
                                "the file name dialog")
        dialog.query_one(Input).value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.exists(), "the exported file")
        text = target.read_text(encoding="utf-8")
        assert text.startswith("My Favourite Species")
        assert f"Panthera tigris ({common['Panthera tigris']})" in text
        assert f"Canis lupus ({common['Canis lupus']})" in text and "Ursus" not in text

        # Clear all asks first: No keeps them, Yes removes them.
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmDialog), "no")
        assert (await app.call("favorites/count"))["count"] == 2
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: not pane.favourites and "No favourites yet"
                       in plain(app.query_one("#fav-status", Static)), "the empty list")
        assert (await app.call("favorites/count"))["count"] == 0


async def test_import_with_progress_cancel_and_switch_databases(data_dir, kit):
    # Once armed, the engine is paused (SIGSTOP) as soon as it reports import progress past 0,
    # so the cancel is sure to arrive while the import runs, however fast the machine is.
    hold = {"armed": False, "held": False}

    def trace(direction, msg):
        value = (msg.get("params") or {}).get("value") or {} if isinstance(msg, dict) else {}
        if (hold["armed"] and not hold["held"] and direction == "recv"
                and msg.get("method") == "$/progress" and value.get("kind") == "report"
                and (value.get("fraction") or 0) > 0):
            hold["held"] = True
            os.kill(app.engine.pid, signal.SIGSTOP)

    app = make_app(data_dir, engine_args=["--trusted-key", kit.public_key], trace=trace)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f5")
        pane = app.query_one(SettingsPane)
        await wait_for(pilot, lambda: pane.answers.get("database/info"), "the database info")
        bundled_count = pane.answers["database/info"]["taxaCount"]
        assert "bundled" in plain(pane.query_one("#database", Static))
        assert "No data is collected" in plain(pane.query_one("#about", Static))
        assert "Bundled database:" in plain(pane.query_one("#storage", Static))
        assert pane.query_one("#delete").disabled, "nothing to delete yet"

        # A signed file imports with progress and becomes the active database.
        progress = []
        bar = pane.query_one("#import-progress")
        pane.query_one("#import-path", Input).value = str(kit.stol)
        pane.query_one("#import-path", Input).focus()
        await pilot.press("enter")

        def watch():
            progress.append(bar.progress)
            return pane.import_outcome

        assert await wait_for(pilot, watch, "the import") == "done"
        assert bar.progress == 100
        assert "Imported 30 taxa" in plain(pane.query_one("#import-status", Static))
        await wait_for(pilot, lambda: pane.answers["database/info"]["source"] == "reference",
                       "the reference database info")
        assert pane.answers["database/info"]["taxaCount"] == 30
        tree = app.query_one(TaxonTree)
        await wait_for(pilot, lambda: node_names(tree.root) == ["Bacteria", "Eukaryota"],
                       "the fixture's roots in the tree")

        # A large import is cancelled with Esc while it runs; nothing changes.
        pane.query_one("#import-path", Input).value = str(kit.big_stol)
        pane.query_one("#import-path", Input).focus()
        hold["armed"] = True
        await pilot.press("enter")
        try:
            await wait_for(pilot, lambda: hold["held"] and pane.import_call is not None
                           and 0 < bar.progress < 80, "the large import under way")
            await pilot.press("escape")
            await wait_for(pilot, lambda: "cancelling" in plain(pane.query_one("#import-status")),
                           "the cancel sent")
        finally:
            os.kill(app.engine.pid, signal.SIGCONT)
        assert await wait_for(pilot, lambda: pane.import_outcome, "the cancellation") == "cancelled"
        assert "cancelled" in plain(pane.query_one("#import-status", Static))
        info = await app.call("database/info")
        assert info["source"] == "reference" and info["taxaCount"] == 30

        # Switch to the bundled database and back.
        pane.load()
        await wait_for(pilot, lambda: not pane.query_one("#deactivate").disabled, "the buttons")
        await pilot.click("#deactivate")
        await wait_for(pilot, lambda: pane.answers.get("database/deactivateReference"), "switched")
        assert (await app.call("database/info"))["taxaCount"] == bundled_count
        await wait_for(pilot, lambda: "Archaea" in node_names(tree.root), "the bundled roots")
        await wait_for(pilot, lambda: not pane.query_one("#activate").disabled, "activate")
        await pilot.click("#activate")
        await wait_for(pilot, lambda: pane.answers.get("database/activateReference"), "switched")
        assert (await app.call("database/info"))["source"] == "reference"

        # Delete asks for confirmation, then leaves the bundled database in use.
        await wait_for(pilot, lambda: not pane.query_one("#delete").disabled, "delete enabled")
        await pilot.click("#delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: (pane.answers.get("database/info") or {}).get("source")
                       == "bundled" and pane.query_one("#delete").disabled, "the deletion")
        report = await app.call("storage/report")
        assert report["reference"]["available"] is False


async def test_errors_are_readable_messages(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        app.open_detail(42)  # no such taxon
        await wait_for(pilot, lambda: any("taxonNotFound" in m for m in app.messages),
                       "the not-found message")
        assert "That taxon is not in the active database. (taxonNotFound)" in app.messages
        await pilot.press("escape")
        # A bacterium and an animal meet at the root of the tree of life (compare/taxa answers
        # them since issue #37); no error, and no traceback.
        pane = await compare_tab(pilot)
        for slot, name in (("a", "Escherichia coli"), ("b", "Panthera leo")):
            pane.set_slot(slot, await search_hit(app, name))
        await wait_for(pilot, lambda: (pane.result or {}).get("lca", {}).get("id") == 0,
                       "the comparison across the tree of life")
        assert not any("noCommonAncestor" in m or "Traceback" in m for m in app.messages)


async def test_engine_crash_is_shown_and_restart_recovers(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        old = app.engine
        os.kill(old.pid, signal.SIGKILL)
        banner = app.query_one("#engine-banner", Static)
        await wait_for(pilot, lambda: "was killed" in plain(banner) and banner.has_class("shown"),
                       "the crash banner")
        assert "Press Ctrl+R to restart it" in plain(banner)
        # Using the app meanwhile shows the same advice instead of failing.
        await pilot.press("f2", *"lion")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.engine is not None and app.engine is not old
                       and not banner.has_class("shown"), "the restarted engine")
        assert old.returncode is not None
        assert await app.call("ping") == {}
        pane = app.query_one(SearchPane)
        await wait_for(pilot, lambda: pane.shown_query == "lion" and pane.results,
                       "results from the new engine")
        assert "Panthera leo" in [r["scientificName"] for r in pane.results]


async def test_language_picker_lists_the_database_languages(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        dialog = await pick_language(pilot, "es")
        assert {"en", "es", "fr", "de"} <= set(dialog.languages)
        roots = (await app.call("taxon/roots", lang="es"))["roots"]
        eukaryota = next(r for r in roots if r["scientificName"] == "Eukaryota")
        tree = app.query_one(TaxonTree)
        await wait_for(pilot, lambda: any(
            eukaryota["preferredCommonName"] in str(n.label) for n in tree.root.children),
            "Spanish names in the tree")
        assert "Español" in app.sub_title


async def test_function_keys_switch_tabs_and_ctrl_q_quits(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        for key, tab in (("f2", "search"), ("f5", "settings"), ("f2", "search"), ("f4", "favourites"),
                         ("f2", "search"), ("f3", "compare"), ("f2", "search"), ("f1", "tree")):
            await pilot.press(key)  # also from the Search tab, whose text box has the focus
            await pilot.pause()
            assert app.query_one(TabbedContent).active == tab, key
        engine = app.engine
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: engine.returncode is not None, "the engine's exit")
    assert engine.returncode == 0, "quitting shuts the engine down cleanly"


async def test_detail_draws_a_media_pack_picture(data_dir, kit, tmp_path):
    """A PNG from a signed media pack is drawn with half blocks, with its credit and licence
    (the lion has no bundled photograph: the pack's drawing is its only picture)."""
    lion = await lion_id(data_dir)
    images = tmp_path / "images"
    images.mkdir()
    # Top half red, bottom half blue.
    (images / "lion.png").write_bytes(png(8, 8, lambda x, y: (255, 0, 0) if y < 4 else (0, 0, 255)))
    manifest = tmp_path / "manifest.csv"
    manifest.write_text(f"file,taxonId,credit,license\nlion.png,{lion},Drawing: A. Tester,CC0 1.0\n")
    pack = tmp_path / "cats.stolmedia"
    subprocess.run([kit.engine, "pack-media", "--images", str(images), "--manifest", str(manifest),
                    "--id", "cats", "--name", "Cats", "--pack-version", "1", "--key", str(kit.key),
                    "--out", str(pack)], check=True, capture_output=True, timeout=60)
    app = make_app(data_dir, engine_args=["--trusted-key", kit.public_key])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        installed = await app.call("media/import", path=str(pack))
        assert installed["imageCount"] == 1
        screen = await open_detail(pilot, lion)
        picture = screen.query_one("#drawing", Static)
        await wait_for(pilot, lambda: "▀" in plain(picture), "the picture")
        assert plain(screen.query_one("#credits", Static)) == "Drawing: A. Tester\nLicence: CC0 1.0"
        rows = plain(picture).splitlines()
        assert len(rows) == 4 and all(line == "▀" * 8 for line in rows), "8 × 8 px, not enlarged"


async def test_settings_diagnostics_switch_and_export(data_dir, tmp_path):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f5")
        pane = app.query_one(SettingsPane)
        await wait_for(pilot, lambda: pane.answers.get("diagnostics/status"), "the status")
        assert pane.answers["diagnostics/status"]["enabled"] is False
        await pilot.click("#diagnostics")
        await wait_for(pilot, lambda: pane.answers["diagnostics/status"]["enabled"], "on")
        assert (await app.call("diagnostics/status"))["enabled"] is True
        target = tmp_path / "report.txt"
        await pilot.click("#export-diagnostics")
        dialog = await wait_for(pilot, lambda: isinstance(app.screen, FileNameDialog) and app.screen,
                                "the file name dialog")
        dialog.query_one(Input).value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.exists() and target.stat().st_size, "the report")
        exported = (await app.call("diagnostics/export"))["text"]
        assert target.read_text(encoding="utf-8").splitlines()[0] == exported.splitlines()[0]


async def test_search_completion_is_accepted_with_right_arrow(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f2", *"snow leo")
        box = app.query_one("#query", Input)
        await wait_for(pilot, lambda: box._suggestion.lower().startswith("snow leo")
                       and len(box._suggestion) > len("snow leo"), "a completion")
        suggestion = box._suggestion
        await pilot.press("right")
        assert box.value == suggestion
        pane = app.query_one(SearchPane)
        await wait_for(pilot, lambda: pane.shown_query == suggestion and pane.results,
                       "results for the completed name")


async def test_function_keys_leave_the_detail_screen_for_the_chosen_tab(data_dir):
    lion = await lion_id(data_dir)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f2", *"tiger")
        pane = app.query_one(SearchPane)
        await wait_for(pilot, lambda: pane.shown_query == "tiger" and pane.results, "results")
        app.query_one("#results", DataTable).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.detail,
                       "the detail screen")
        # F4 on Detail shows the Favourites tab, not Detail over a tab switched underneath.
        await pilot.press("f4")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen), "the tabs")
        tabs = app.query_one(TabbedContent)
        assert tabs.active == "favourites"
        await pilot.pause(0.2)  # the focus the tabs had before Detail must not take them back
        assert tabs.active == "favourites"
        assert app.focused is not None and app.query_one(FavouritesPane) in app.focused.ancestors
        # F2 goes back to the search, as it was left.
        await pilot.press("f2")
        await wait_for(pilot, lambda: tabs.active == "search", "the Search tab")
        assert pane.shown_query == "tiger" and pane.results
        # Details opened one over another all give way.
        app.open_detail(lion)
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen), "a detail")
        app.open_detail(lion)
        await wait_for(pilot, lambda: sum(isinstance(s, DetailScreen) for s in app.screen_stack) == 2,
                       "a second detail over it")
        await pilot.press("f1")
        await wait_for(pilot, lambda: not any(isinstance(s, DetailScreen) for s in app.screen_stack),
                       "every detail closed")
        await pilot.pause(0.2)
        assert tabs.active == "tree"
        assert app.focused is app.query_one(TaxonTree)


async def test_search_suggestions_and_results_follow_the_language(data_dir):
    prefix = "ele"
    async with EngineClient.start(engine_for_tests(), data_dir=data_dir) as engine:
        expected = {lang: [s["text"] for s in (await engine.call(
            "search/autocomplete", prefix=prefix, limit=6, lang=lang))["suggestions"]]
            for lang in ("en", "de")}
    assert expected["en"] != expected["de"], "the prefix must tell the two languages apart"
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f2", *prefix)
        pane = app.query_one(SearchPane)
        line = app.query_one("#suggestions", Static)
        await wait_for(pilot, lambda: plain(line) == "Suggestions: " + "  ·  ".join(expected["en"]),
                       "English suggestions")
        await wait_for(pilot, lambda: pane.shown_query == prefix and pane.results, "results")
        # Switch to German with the picker: the list under the box follows without a keystroke.
        await pick_language(pilot, "de")
        await wait_for(pilot, lambda: plain(line) == "Suggestions: " + "  ·  ".join(expected["de"]),
                       "German suggestions")
        # The results show each taxon's German name.
        table = app.query_one("#results", DataTable)

        def common_names():
            # (after the column of picture marks: common name, scientific name…)
            return {str(table.get_row(key)[2]): str(table.get_row(key)[1])
                    for key in table.rows}

        await wait_for(pilot, lambda: common_names().get("Elephas maximus") == "Asiatischer Elefant",
                       "German names in the results")
        # The inline completion, typed afresh, is German too.
        box = app.query_one("#query", Input)
        box.value = "Asiatischer El"
        await wait_for(pilot, lambda: box._suggestion == "Asiatischer Elefant", "a German completion")


async def test_compare_follows_the_language(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        pane = await compare_tab(pilot)
        picked = app.query_one("#picked", Static)
        pane.set_slot("a", await search_hit(app, "Panthera leo"))
        await wait_for(pilot, lambda: "A: Panthera leo (Lion)" in plain(picked), "A in English")
        # One taxon chosen: its label follows the language.
        app.set_language("de")
        await wait_for(pilot, lambda: "A: Panthera leo (Löwe)" in plain(picked), "A in German")
        app.query_one("#b", Input).focus()
        await pilot.press(*"Panthera tigris", "enter")
        await wait_for(pilot, lambda: pane.result, "the comparison")
        drawing = app.query_one("#drawing", Static)
        assert "species Panthera leo  Löwe" in plain(drawing)
        # Both chosen: the labels and the drawing follow a switch back to English.
        app.set_language("en")
        await wait_for(pilot, lambda: "A: Panthera leo (Lion)" in plain(picked)
                       and "species Panthera leo  Lion" in plain(drawing), "English again")
        assert "B: Panthera tigris (Tiger)" in plain(picked)
        app.set_language("fr")
        await wait_for(pilot, lambda: "species Panthera leo  Lion" in plain(drawing)
                       and pane.result["a"]["preferredCommonNameLang"] == "fr", "French")


async def test_a_failed_import_keeps_its_reason_on_the_import_screen(data_dir, tmp_path):
    junk = tmp_path / "holiday photos.stol"
    junk.write_bytes(b"this is not a database" * 100)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f5")
        pane = app.query_one(SettingsPane)
        status = pane.query_one("#import-status", Static)
        path = pane.query_one("#import-path", Input)
        path.value = str(junk)
        path.focus()
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: pane.import_outcome, "the import") == "failed"
        lines = plain(status).splitlines()
        assert lines[:2] == ["Import failed: nothing was changed.",
                             "This is not a .stol database file. (notAStolFile)"]
        assert lines[2], "the engine's own finding under it"
        # The toasts go; the reason stays.
        app.clear_notifications()
        await pilot.pause()
        assert "(notAStolFile)" in plain(status)
        # A file that is not there says so, in place of the earlier reason.
        path.value = str(tmp_path / "missing.stol")
        path.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "(fileUnreadable)" in plain(status), "the missing file")
        assert "notAStolFile" not in plain(status)
        assert (await app.call("database/info"))["source"] == "bundled"


def test_the_app_is_the_browser_its_tabs_talk_to():
    """Everything the tabs and screens use of the app (``base.Browser``) the app has."""
    from stol_client.tui.base import Browser

    members = set(Browser.__annotations__) | {
        name for name, value in vars(Browser).items() if callable(value) and not name.startswith("_")}
    assert {"lang", "call", "open_detail", "set_compare_slot"} <= members
    app = BrowserApp("unused")
    missing = [name for name in sorted(members) if not hasattr(app, name)]
    assert not missing, f"BrowserApp lacks {missing}"
