"""The Settings tab: database info, the storage report, about and data sources, diagnostics,
importing a signed ``.stol`` (with progress, Esc cancels) and switching or deleting the
reference database."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, Optional

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, ProgressBar, Static, Switch

from ..client import Call, Progress
from ..errors import RequestCancelled, StolClientError
from ..format import error_detail, error_message, human_bytes
from .base import EnginePane, guarded
from .dialogs import ConfirmDialog, FileNameDialog


class SettingsPane(EnginePane):
    """Esc cancels a running import."""

    DEFAULT_CSS = """
    SettingsPane VerticalScroll { padding: 0 1; }
    SettingsPane .section { margin-top: 1; text-style: bold; color: $accent; }
    SettingsPane .row { height: auto; }
    SettingsPane .row Label { padding: 1 1 0 0; }
    SettingsPane .row Button { margin-right: 1; }
    SettingsPane #import-path { width: 1fr; }
    SettingsPane #import-progress { margin: 0 1; }
    SettingsPane #import-status { padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel_import", "Cancel import", show=False)]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.import_call: Optional[Call] = None
        #: The last answer of each method shown here (for tests and for redrawing).
        self.answers: Dict[str, Any] = {}
        #: What the last import ended with: ``"done"``, ``"cancelled"`` or ``"failed"``.
        self.import_outcome: Optional[str] = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("Database", classes="section")
            yield Static("", id="database")
            with Horizontal(classes="row"):
                yield Button("Use the reference database", id="activate")
                yield Button("Use the bundled database", id="deactivate")
                yield Button("Delete the reference…", id="delete", variant="error")
            yield Static("Import a reference database (.stol)", classes="section")
            with Horizontal(classes="row"):
                yield Input(placeholder="path of a signed .stol file", id="import-path")
                yield Button("Import", id="import", variant="primary")
            yield ProgressBar(total=100, show_eta=False, id="import-progress")
            yield Static("", id="import-status")
            yield Static("Storage", classes="section")
            yield Static("", id="storage")
            yield Static("Diagnostics (kept on this device only)", classes="section")
            with Horizontal(classes="row"):
                yield Label("Write a diagnostics log")
                yield Switch(id="diagnostics")
                yield Button("Export diagnostics…", id="export-diagnostics")
            yield Static("About", classes="section")
            yield Static("", id="about")

    def reload(self) -> None:
        self.load()

    @work(exclusive=True, group="settings")
    @guarded
    async def load(self) -> None:
        app = self.browser
        info, storage, about, diagnostics = await asyncio.gather(
            app.call("database/info"), app.call("storage/report"), app.call("about"),
            app.call("diagnostics/status"))
        self.answers.update({"database/info": info, "storage/report": storage, "about": about,
                             "diagnostics/status": diagnostics})
        dataset = info.get("dataset", {})
        db = Text()
        db.append("Active: ", style="bold")
        db.append(f"{'reference (imported)' if info.get('source') == 'reference' else 'bundled'}"
                  f" — {dataset.get('name', '?')} {dataset.get('version', '')}\n")
        db.append("Taxa: ", style="bold")
        db.append(f"{info.get('taxaCount', 0):,}   ")
        db.append("Size: ", style="bold")
        db.append(f"{human_bytes(info.get('sizeBytes'))}   ")
        db.append("Schema: ", style="bold")
        db.append(f"{info.get('schemaVersion')}   ")
        db.append("Built: ", style="bold")
        db.append(f"{dataset.get('buildDate', '?')}\n")
        db.append("Licence: ", style="bold")
        db.append(f"{dataset.get('license', '?')}")
        self.query_one("#database", Static).update(db)

        reference = storage.get("reference", {})
        self.query_one("#activate", Button).disabled = not reference.get("available") \
            or bool(reference.get("active"))
        self.query_one("#deactivate", Button).disabled = not reference.get("active")
        self.query_one("#delete", Button).disabled = not reference.get("available")

        lines = Text()
        rows = [("Bundled database", storage.get("bundled", {}).get("bytes")),
                ("Reference database", reference.get("bytes") if reference.get("available") else None),
                ("Favourites", storage.get("favorites", {}).get("bytes")),
                ("Diagnostics log", storage.get("diagnostics", {}).get("bytes"))]
        for pack in storage.get("mediaPacks", []):
            rows.append((f"Media pack “{pack.get('name')}”", pack.get("bytes")))
        for name, size in rows:
            lines.append(f"{name}: ", style="bold")
            lines.append(f"{human_bytes(size) if size is not None else 'none'}\n")
        volume = storage.get("volume", {})
        lines.append("Free space: ", style="bold")
        lines.append(f"{human_bytes(volume.get('freeBytes'))} of {human_bytes(volume.get('totalBytes'))}")
        self.query_one("#storage", Static).update(lines)

        switch = self.query_one("#diagnostics", Switch)
        with switch.prevent(Switch.Changed):
            switch.value = bool(diagnostics.get("enabled"))

        engine = about.get("engine", {})
        text = Text()
        text.append(f"{engine.get('name')} {engine.get('version')} ({engine.get('build')}), "
                    f"protocol {about.get('protocolVersion')}\n")
        text.append(f"{about.get('dataset', {}).get('description', '')}\n")
        text.append("Data sources:\n", style="bold")
        for source in about.get("sources", []):
            text.append(f"• {source.get('attribution')}")
            if source.get("license"):
                text.append(f" ({source['license']})")
            if source.get("attributionRequired"):
                text.append(" — credit required", style="italic")
            text.append("\n")
        text.append(about.get("privacy", ""), style="bold green")
        self.query_one("#about", Static).update(text)

    # -- diagnostics ---------------------------------------------------------------------------

    @on(Switch.Changed, "#diagnostics")
    def _diagnostics(self, event: Switch.Changed) -> None:
        self.set_diagnostics(event.value)

    @work(group="diagnostics")
    @guarded
    async def set_diagnostics(self, enabled: bool) -> None:
        result = await self.browser.call("diagnostics/setEnabled", enabled=enabled)
        self.answers["diagnostics/status"] = result
        self.browser.show_message("Diagnostics log is " + ("on." if result.get("enabled") else "off."))

    @on(Button.Pressed, "#export-diagnostics")
    def _export_diagnostics(self) -> None:
        def answered(name: Optional[str]) -> None:
            if name:
                self.export_diagnostics(name)

        self.app.push_screen(FileNameDialog(
            "Save the diagnostics report to which file?",
            default=os.path.join(os.getcwd(), "stol-diagnostics.txt")), answered)

    @work(group="diagnostics")
    @guarded
    async def export_diagnostics(self, name: str) -> None:
        result = await self.browser.call("diagnostics/export")
        path = os.path.abspath(os.path.expanduser(name))
        with open(path, "w", encoding="utf-8") as out:
            out.write(result.get("text", ""))
        self.browser.show_message(f"Saved the diagnostics report to {path}")

    # -- import --------------------------------------------------------------------------------

    @on(Button.Pressed, "#import")
    @on(Input.Submitted, "#import-path")
    def _import(self) -> None:
        path = self.query_one("#import-path", Input).value.strip()
        if not path:
            self.browser.show_message("Type the path of a .stol file first.")
            return
        if self.import_call is not None:
            self.browser.show_message("An import is already running (Esc cancels it).")
            return
        self.start_import(os.path.abspath(os.path.expanduser(path)))

    @work(group="import")
    @guarded
    async def start_import(self, path: str) -> None:
        bar = self.query_one("#import-progress", ProgressBar)
        status = self.query_one("#import-status", Static)
        bar.update(progress=0)
        status.update(Text("starting… (Esc cancels)", style="dim"))
        self.import_outcome = None

        def progress(p: Progress) -> None:
            if p.fraction is not None:
                bar.update(progress=round(p.fraction * 100, 1))
            if p.message and p.kind == "report":
                status.update(Text(f"{p.message}… (Esc cancels)"))

        try:
            self.import_call = await self.browser.request("database/import", path=path,
                                                          progress=progress)
            info = await self.import_call
        except RequestCancelled:
            self.import_outcome = "cancelled"
            status.update(Text("Import cancelled: nothing was changed.", style="yellow"))
            bar.update(progress=0)
            return
        except (StolClientError, OSError) as error:
            self.import_outcome = "failed"
            status.update(self._failure(error))
            bar.update(progress=0)
            raise  # and a message, as for any error (the reason stays above)
        finally:
            self.import_call = None
        self.import_outcome = "done"
        bar.update(progress=100)
        status.update(Text(f"Imported {info.get('taxaCount', 0):,} taxa; the reference "
                           "database is now active.", style="green"))

    @staticmethod
    def _failure(error: BaseException) -> Text:
        """Why an import failed, to stay on screen: the reason in words, then the engine's own
        finding (``wrong magic bytes``) when it gave one."""
        text = Text("Import failed: nothing was changed.\n", style="red")
        text.append(error_message(error), style="bold")
        detail = error_detail(error)
        if detail:
            text.append(f"\n{detail}", style="dim")
        return text

    def action_cancel_import(self) -> None:
        if self.import_call is not None:
            self.cancel_import(self.import_call)

    @work(group="import-cancel")
    @guarded
    async def cancel_import(self, call: Call) -> None:
        self.query_one("#import-status", Static).update(Text("cancelling…", style="yellow"))
        await call.cancel(timeout=30)

    # -- switching -----------------------------------------------------------------------------

    @on(Button.Pressed, "#activate")
    def _activate(self) -> None:
        self.switch("database/activateReference", {})

    @on(Button.Pressed, "#deactivate")
    def _deactivate(self) -> None:
        self.switch("database/deactivateReference", {})

    @on(Button.Pressed, "#delete")
    def _delete(self) -> None:
        def answered(yes: Optional[bool]) -> None:
            if yes:
                self.switch("database/deactivateReference", {"delete": True})

        self.app.push_screen(ConfirmDialog(
            "Delete the imported reference database? The bundled one will be used; "
            "favourites are kept.", yes="Delete"), answered)

    @work(group="switch")
    @guarded
    async def switch(self, method: str, params: Dict[str, Any]) -> None:
        result = await self.browser.call(method, **params)
        self.answers[method] = result
        self.browser.show_message(
            f"Now using the {result.get('source')} database ({result.get('taxaCount', 0):,} taxa).")
        self.load()
