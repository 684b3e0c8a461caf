"""The browser app: one engine child process, the tabs over it, the language picker, and the
banner that reports an engine that stopped and offers to restart it."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, Static, TabbedContent, TabPane

from ..client import Call, EngineClient
from ..errors import EngineExited, MethodNotFound, StolClientError
from ..format import error_message, language_label
from .base import EnginePane, guarded
from .compare_pane import ComparePane
from .detail_screen import DetailScreen
from .dialogs import LanguageDialog
from .favourites_pane import FavouritesPane
from .search_pane import SearchPane
from .settings_pane import SettingsPane
from .tree_pane import TreePane

#: Tab ids, in the order of their keys F1…F5.
TABS = ("tree", "search", "compare", "favourites", "settings")


class BrowserApp(App):
    """``stol-client browse``: a terminal species browser over one stol-engine process. It is
    the :class:`~stol_client.tui.base.Browser` its tabs and screens talk to."""

    TITLE = "Species: Tree of Life"
    #: Children per page in the Tree tab.
    page_size = 40
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #engine-banner { display: none; height: auto; padding: 0 1; background: $error; color: $text; }
    #engine-banner.shown { display: block; }
    TabbedContent { height: 1fr; }
    TabPane { padding: 0; }
    """
    BINDINGS = [
        Binding("f1", "tab('tree')", "Tree"),
        Binding("f2", "tab('search')", "Search"),
        Binding("f3", "tab('compare')", "Compare"),
        Binding("f4", "tab('favourites')", "Favourites"),
        Binding("f5", "tab('settings')", "Settings"),
        Binding("f6", "pick_language", "Language"),
        Binding("ctrl+r", "restart_engine", "Restart engine"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, engine_path: Optional[str] = None, *, data_dir: Optional[str] = None,
                 engine_args: Sequence[str] = (), lang: str = "en",
                 trace: Optional[Callable[[str, Any], None]] = None) -> None:
        super().__init__()
        self.engine_path = engine_path
        self.data_dir = data_dir
        self.engine_args = list(engine_args)
        self.lang = lang
        self.trace = trace
        self.engine: Optional[EngineClient] = None
        #: Set once the first engine has answered ``initialize``.
        self.engine_ready = asyncio.Event()
        #: Language codes seen in the database's names (for the picker), English always.
        self.languages: set = {"en", lang}
        #: Messages shown to the user (errors included), newest last; tests read them.
        self.messages: List[str] = []
        self._engine_closing = False
        #: True from mount (or a restart) until the engine answered or failed to start.
        self._engine_starting = True
        self._languages_probed = False

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="engine-banner")
        with TabbedContent(initial="tree"):
            with TabPane("Tree (F1)", id="tree"):
                yield TreePane()
            with TabPane("Search (F2)", id="search"):
                yield SearchPane()
            with TabPane("Compare (F3)", id="compare"):
                yield ComparePane()
            with TabPane("Favourites (F4)", id="favourites"):
                yield FavouritesPane()
            with TabPane("Settings (F5)", id="settings"):
                yield SettingsPane()
        yield Footer()

    def panes(self) -> List[EnginePane]:
        """Every tab's pane."""
        return list(self.query(EnginePane))

    async def on_mount(self) -> None:
        self._update_subtitle("starting the engine…")
        self.start_engine()

    async def on_unmount(self) -> None:
        await self.close_engine()

    def _update_subtitle(self, state: Optional[str] = None) -> None:
        self.sub_title = state or f"names in {language_label(self.lang)}"

    # -- the engine ----------------------------------------------------------------------------

    @work(exclusive=True, group="engine")
    async def start_engine(self) -> None:
        """Start (or restart) the engine, then draw every tab from it."""
        self._engine_starting = True
        self.engine_ready.clear()
        try:
            await self.close_engine()
            self._engine_closing = False
            try:
                engine = await EngineClient.start(self.engine_path, self.engine_args,
                                                  data_dir=self.data_dir, client_name="stol-browse",
                                                  trace=self.trace)
            except (StolClientError, OSError) as error:
                self._show_banner(f"The engine could not be started: {error_message(error)}  "
                                  "Press Ctrl+R to try again.")
                return
            self.engine = engine
        finally:
            self._engine_starting = False
            self.engine_ready.set()
        engine.on_notification("favorites/didChange", lambda note: self._favourites_changed())
        engine.on_notification("database/didSwitch", lambda note: self._database_switched())
        self.watch_engine(engine)
        self._hide_banner()
        self._update_subtitle()
        self.reload_all()
        self.probe_languages()

    @work(group="engine-watch")
    async def watch_engine(self, engine: EngineClient) -> None:
        returncode = await engine.wait_exited()
        if engine is self.engine and not self._engine_closing:
            self.engine_stopped(returncode)

    async def close_engine(self) -> None:
        """Shut the engine down cleanly (shutdown, exit) if it runs."""
        engine, self.engine = self.engine, None
        if engine is not None:
            self._engine_closing = True
            await engine.close(timeout=3.0)

    def engine_stopped(self, returncode: Optional[int] = None) -> None:
        """Show that the engine is gone, and how to restart it."""
        engine = self.engine
        if returncode is None and engine is not None:
            returncode = engine.returncode
        how = "was killed" if returncode is not None and returncode < 0 else \
            f"exited with code {returncode}" if returncode is not None else "stopped"
        last = ""
        problems = [line for line in (engine.stderr_tail if engine else [])
                    if any(word in line for word in (" error ", " critical ", "fatal", "panic"))]
        if problems:
            last = f"  Last error: {problems[-1][:160]}"
        self._show_banner(f"The engine {how}. Press Ctrl+R to restart it.{last}")
        self._update_subtitle("engine stopped")

    def _show_banner(self, text: str) -> None:
        banner = self.query_one("#engine-banner", Static)
        banner.update(Text(text))
        banner.add_class("shown")
        self.messages.append(text)

    def _hide_banner(self) -> None:
        self.query_one("#engine-banner", Static).remove_class("shown")

    def action_restart_engine(self) -> None:
        self.show_message("Restarting the engine…")
        self._engine_starting = True
        self.engine_ready.clear()
        self.start_engine()

    async def _running_engine(self) -> Optional[EngineClient]:
        """The engine, waiting for it while it starts."""
        if self.engine is None and self._engine_starting:
            await self.engine_ready.wait()
        return self.engine

    async def call(self, method: str, **params: Any) -> Any:
        """``method`` on the engine; raises ``EngineExited`` when it is not running."""
        engine = await self._running_engine()
        if engine is None or not engine.is_running:
            raise EngineExited(engine.returncode if engine else None,
                               engine.stderr_tail if engine else None)
        return await engine.call(method, params)

    async def request(self, method: str, **params: Any) -> Call:
        """Start ``method`` and return its handle (for requests the user may cancel)."""
        engine = await self._running_engine()
        if engine is None or not engine.is_running:
            raise EngineExited(engine.returncode if engine else None)
        progress = params.pop("progress", None)
        return await engine.request(method, params, progress=progress)

    # -- messages ------------------------------------------------------------------------------

    def show_error(self, error: BaseException) -> None:
        """An error as a readable message (never a traceback)."""
        text = error_message(error)
        self.messages.append(text)
        self.notify(text, title="Error", severity="error", timeout=8)

    def show_message(self, text: str) -> None:
        """A short information message."""
        self.messages.append(text)
        self.notify(text, timeout=4)

    # -- navigation ----------------------------------------------------------------------------

    async def action_tab(self, tab: str) -> None:
        """Show tab ``tab``, closing first any Detail screens open over the tabs (F1…F5 go to a tab
        from anywhere, as the footer says)."""
        while isinstance(self.screen, DetailScreen):
            await self.pop_screen()
        # Focus moves into the new tab first: a focused widget left in a hidden tab would take
        # the tabs back to itself.
        self.query_one(f"#{tab}", TabPane).query_one(EnginePane).focus_default()
        self.query_one(TabbedContent).active = tab

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id in ("favourites", "settings") and self.engine is not None:
            pane = event.pane.query_one(EnginePane)
            pane.reload()

    def open_detail(self, taxon_id: int, replace: bool = False) -> None:
        """Show the Detail screen of ``taxon_id`` (in place of the current one if ``replace``)."""
        screen = DetailScreen(taxon_id)
        if replace and isinstance(self.screen, DetailScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def set_compare_slot(self, slot: str, taxon: Dict[str, Any]) -> None:
        """Put ``taxon`` in the Compare tab's slot ``"a"`` or ``"b"``."""
        self.query_one(ComparePane).set_slot(slot, taxon)

    def reload_all(self) -> None:
        """Redraw every tab (and an open Detail screen) from the engine."""
        for pane in self.panes():
            pane.reload()
        for screen in self.screen_stack:
            if isinstance(screen, DetailScreen):
                screen.reload()

    def _favourites_changed(self) -> None:
        self.query_one(FavouritesPane).reload()

    def _database_switched(self) -> None:
        self.languages = {"en", self.lang}
        self._languages_probed = False
        self.reload_all()
        self.probe_languages()

    # -- language ------------------------------------------------------------------------------

    def note_languages(self, codes: Iterable[str]) -> None:
        """Remember languages seen in a taxon's names."""
        self.languages.update(code for code in codes if code and code != "la")

    @work(group="languages")
    @guarded
    async def probe_languages(self) -> None:
        """Learn which languages the database has common names in: ``database/languages``, or,
        from an engine without that method, the details of the taxa near the roots."""
        try:
            listed = (await self.call("database/languages")).get("languages", [])
        except MethodNotFound:  # an older engine: fall back to looking at names
            listed = None
        if listed is not None:
            self.note_languages(entry.get("lang") for entry in listed)
            self._languages_probed = True
            return
        roots = (await self.call("taxon/roots")).get("roots", [])
        pages = await asyncio.gather(*(self.call("taxon/children", id=r["id"], limit=20)
                                       for r in roots))
        taxa = roots + [c for page in pages for c in page.get("children", [])]
        details = await asyncio.gather(*(self.call("taxon/detail", id=t["id"]) for t in taxa))
        for detail in details:
            self.note_languages((detail.get("names") or {}).keys())
        self._languages_probed = True

    def action_pick_language(self) -> None:
        def picked(code: Optional[str]) -> None:
            if code and code != self.lang:
                self.set_language(code)

        self.push_screen(LanguageDialog(sorted(self.languages), self.lang), picked)

    def set_language(self, code: str) -> None:
        """Show names in ``code`` everywhere."""
        self.lang = code
        self.languages.add(code)
        self._update_subtitle()
        self.reload_all()

    async def action_quit(self) -> None:
        await self.close_engine()
        self.exit()


def run(engine_path: Optional[str] = None, data_dir: Optional[str] = None,
        engine_args: Sequence[str] = (), lang: str = "en") -> int:
    """Run the browser in this terminal until the user quits; returns an exit status."""
    app = BrowserApp(engine_path, data_dir=data_dir, engine_args=engine_args, lang=lang)
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)


__all__ = ["BrowserApp", "run", "TABS"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run(os.environ.get("STOL_ENGINE")))
