"""Pure text helpers for the browser: taxon labels, conservation badges, readable errors and the
two-branch drawing of a comparison. Nothing here talks to the engine or to Textual widgets."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from rich.text import Text

from ..errors import EngineError, EngineExited, EngineNotFound, StolClientError

#: IUCN categories, most to least threatened, with the words and colours shown for them.
CONSERVATION: Dict[str, tuple] = {
    "EX": ("Extinct", "white on grey23"),
    "EW": ("Extinct in the wild", "white on purple4"),
    "CR": ("Critically endangered", "white on red3"),
    "EN": ("Endangered", "black on dark_orange"),
    "VU": ("Vulnerable", "black on yellow3"),
    "NT": ("Near threatened", "black on dark_sea_green2"),
    "LC": ("Least concern", "black on green3"),
    "DD": ("Data deficient", "black on grey70"),
    "NE": ("Not evaluated", "black on grey50"),
}

#: The ranks offered as filters, from the top of the tree down.
RANKS = ("domain", "kingdom", "phylum", "class", "order", "family", "genus", "species", "subspecies", "variety")

#: What language codes are called in the picker (others are shown as their code).
LANGUAGE_NAMES = {
    "en": "English", "es": "Español", "fr": "Français", "de": "Deutsch", "it": "Italiano",
    "pt": "Português", "nl": "Nederlands", "sv": "Svenska", "da": "Dansk", "no": "Norsk",
    "nb": "Norsk bokmål", "fi": "Suomi", "pl": "Polski", "cs": "Čeština", "ru": "Русский",
    "uk": "Українська", "ja": "日本語", "zh": "中文", "ko": "한국어", "ar": "العربية",
    "tr": "Türkçe", "el": "Ελληνικά", "hu": "Magyar", "ca": "Català", "la": "Latina",
}


def language_label(code: str) -> str:
    """``"Español (es)"`` for ``"es"``; the bare code for languages without a known name."""
    name = LANGUAGE_NAMES.get(code)
    return f"{name} ({code})" if name else code


def badge(status: Optional[str]) -> Text:
    """A coloured IUCN badge such as `` VU ``, or empty text when the taxon has no status."""
    if not status:
        return Text("")
    _, style = CONSERVATION.get(status, (status, "reverse"))
    return Text(f" {status} ", style=style)


def conservation_words(status: Optional[str]) -> str:
    """``"Vulnerable (VU)"``, or ``"not assessed"`` when there is no status."""
    if not status:
        return "not assessed"
    words, _ = CONSERVATION.get(status, (status, ""))
    return f"{words} ({status})"


def common_name(taxon: Dict[str, Any]) -> Optional[str]:
    """The preferred common name a taxon, search result or favourite carries, if any."""
    for key in ("preferredCommonName", "commonName"):
        value = taxon.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def scientific(taxon: Dict[str, Any]) -> Text:
    """The scientific name, italic for genera and below as taxonomists write them."""
    name = taxon.get("scientificName") or "?"
    rank = taxon.get("rank")
    italic = rank in ("genus", "subgenus", "species", "subspecies", "variety", "form")
    return Text(name, style="italic" if italic else "")


def taxon_label(taxon: Dict[str, Any], *, show_rank: bool = True, show_badge: bool = True) -> Text:
    """One line for a taxon: ``rank  Scientific name  Common name  [VU]``."""
    text = Text()
    if show_rank:
        text.append(f"{taxon.get('rank') or 'clade'} ", style="dim")
    text.append_text(scientific(taxon))
    common = common_name(taxon)
    if common and common != taxon.get("scientificName"):
        text.append("  ")
        text.append(common, style="bold")
    if show_badge and taxon.get("conservationStatus"):
        text.append(" ")
        text.append_text(badge(taxon.get("conservationStatus")))
    return text


def short_name(taxon: Dict[str, Any]) -> str:
    """``"Panthera leo (Lion)"``, or the scientific name alone."""
    name = taxon.get("scientificName") or "?"
    common = common_name(taxon)
    return f"{name} ({common})" if common and common != name else name


def breadcrumb(path: Iterable[Dict[str, Any]]) -> Text:
    """``Eukaryota › Animalia › Chordata``: a path of taxa, root first."""
    text = Text()
    for i, taxon in enumerate(path):
        if i:
            text.append(" › ", style="dim")
        text.append_text(scientific(taxon))
    return text


def comparison_lines(result: Dict[str, Any]) -> List[Text]:
    """The two paths of a ``compare/taxa`` answer drawn as two branches joining at the lowest
    common ancestor, which is drawn first::

        family Felidae  Cats                  ← common ancestor
        ├─ genus Panthera  Big cats
        │  └─ species Panthera leo  Lion      A
        └─ genus Felis
           └─ species Felis catus  Cat        B

    A taxon that is the other's ancestor is drawn as the ancestor with one branch.
    """
    lca = result.get("lca") or {}
    path_a = list(result.get("pathFromA") or [])
    path_b = list(result.get("pathFromB") or [])
    # Each path runs from the taxon up to and including the LCA: drop the LCA, go downwards.
    branch_a = list(reversed(path_a[:-1]))
    branch_b = list(reversed(path_b[:-1]))
    lines: List[Text] = []
    head = taxon_label(lca)
    head.append("  ← common ancestor", style="bold cyan")
    if not branch_a and not branch_b:
        head.append("  (A and B)", style="bold")
    elif not branch_a:
        head.append("  (A)", style="bold")
    elif not branch_b:
        head.append("  (B)", style="bold")
    lines.append(head)
    branches = [(b, tag) for b, tag in ((branch_a, "A"), (branch_b, "B")) if b]
    for index, (branch, tag) in enumerate(branches):
        last_branch = index == len(branches) - 1
        for depth, taxon in enumerate(branch):
            indent = Text("   " if last_branch else "│  ", style="dim") if depth else Text("")
            inner = "   " * max(0, depth - 1)
            connector = ("└─ " if last_branch else "├─ ") if depth == 0 else inner + "└─ "
            line = Text()
            line.append_text(indent)
            line.append(connector, style="dim")
            line.append_text(taxon_label(taxon))
            if depth == len(branch) - 1:
                line.append(f"  {tag}", style="bold cyan")
            lines.append(line)
    return lines


def similarity_words(value: Any) -> str:
    """Trait similarity as a percentage, or why there is none."""
    if value is None:
        return "not known (one of them has no traits recorded)"
    return f"{float(value) * 100:.0f}% of their traits are shared"


def human_bytes(count: Any) -> str:
    """``"3.9 MiB"`` for a byte count."""
    if not isinstance(count, (int, float)):
        return "—"
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"  # pragma: no cover


#: Plain words for the engine's error kinds a person is likely to meet.
_KIND_WORDS = {
    "taxonNotFound": "That taxon is not in the active database.",
    "notASpecies": "Relatives can only be found for a species.",
    "noCommonAncestor": "These two are in different trees of life and share no ancestor.",
    "fileUnreadable": "The file cannot be read (missing, a folder, or not allowed).",
    "fileTooLarge": "The file is too large to import.",
    "notAStolFile": "This is not a .stol database file.",
    "checksumMismatch": "The file is damaged or incomplete (its checksum does not match).",
    "signatureInvalid": "The file is not signed by a trusted publisher.",
    "decompressedTooLarge": "The file unpacks to more than the allowed size.",
    "incompatibleSchema": "The database in the file does not have the layout this app reads (or was made for a newer version).",
    "databaseCorrupt": "The database inside the file is damaged.",
    "importAlreadyInProgress": "An import is already running.",
    "importFailed": "The import could not be finished.",
    "referenceMissing": "No reference database has been imported yet.",
    "favoritesUnavailable": "Favourites cannot be saved on this device right now.",
    "favoritesNewerVersion": "The favourites were saved by a newer version of the app.",
    "cancelled": "Cancelled.",
    "serverShutDown": "The engine is shutting down.",
}


def error_message(error: BaseException) -> str:
    """A readable sentence for any error the client raises (never a traceback)."""
    if isinstance(error, EngineExited):
        return "The engine stopped. Press Ctrl+R to restart it."
    if isinstance(error, EngineNotFound):
        return f"The engine could not be started: {error}"
    if isinstance(error, EngineError):
        words = _KIND_WORDS.get(error.kind or "")
        detail = error.message or ""
        if words:
            return f"{words} ({error.kind})"
        return f"{detail} ({error.kind})" if error.kind else detail or str(error)
    if isinstance(error, StolClientError):
        return str(error)
    if isinstance(error, OSError):
        return f"{error.strerror or error} ({getattr(error, 'filename', '') or ''})".replace(" ()", "")
    return f"{type(error).__name__}: {error}"
