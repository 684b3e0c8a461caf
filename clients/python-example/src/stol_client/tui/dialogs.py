"""Small modal dialogs: a yes/no confirmation, a file name prompt and the language picker."""

from __future__ import annotations

from typing import List, Optional

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList
from textual.widgets.option_list import Option

from ..format import language_label

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 64; height: auto; padding: 1 2; border: thick $accent; background: $surface;
}}
{name} Horizontal {{ height: auto; margin-top: 1; align-horizontal: right; }}
{name} Button {{ margin-left: 2; }}
"""


class ConfirmDialog(ModalScreen[bool]):
    """Asks a yes/no question; dismisses with ``True`` only for yes (key y)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmDialog")
    BINDINGS = [("y", "answer(True)", "Yes"), ("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, id="question")
            with Horizontal():
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button("No (n)", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class FileNameDialog(ModalScreen[Optional[str]]):
    """Asks for a file name; dismisses with the text, or ``None`` when cancelled (Esc)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="FileNameDialog")
    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield Input(value=self.default, placeholder="file name", id="file-name")
            with Horizontal():
                yield Button("Save (Enter)", variant="primary", id="save")
                yield Button("Cancel (Esc)", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._finish()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self._finish()
        else:
            self.dismiss(None)

    def _finish(self) -> None:
        text = self.query_one("#file-name", Input).value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LanguageDialog(ModalScreen[Optional[str]]):
    """Picks one of the database's languages; dismisses with its code, or ``None`` (Esc)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="LanguageDialog") + """
    LanguageDialog OptionList { height: auto; max-height: 16; margin-top: 1; }
    """
    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, languages: List[str], current: str) -> None:
        super().__init__()
        self.languages = languages
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Names in which language?")
            yield OptionList(*[Option(language_label(code), id=code) for code in self.languages],
                             id="languages")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.current in self.languages:
            options.highlighted = self.languages.index(self.current)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
