"""What the CLI and the browser show of the engine's answers, as plain text (standard library only).

Both front ends read answers through these helpers, and these read only the keys that
``protocol/README.md`` and ``protocol/openrpc.json`` document (``tests/test_source_rules.py``
checks it); keys an engine adds later are ignored. The browser styles the same words and the same
comparison layout with Rich (``stol_client.tui.styled``); the CLI prints them as they are.
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from .errors import EngineError, EngineExited, EngineNotFound, StolClientError

#: IUCN categories, most to least threatened: the words shown for each, and the Rich style of its
#: badge in the browser.
CONSERVATION: Dict[str, Tuple[str, str]] = {
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

#: Ranks whose scientific names taxonomists write in italics.
ITALIC_RANKS = frozenset(("genus", "subgenus", "species", "subspecies", "variety", "form"))

#: What language codes are called (others are shown as their code).
LANGUAGE_NAMES = {
    "en": "English", "es": "Español", "fr": "Français", "de": "Deutsch", "it": "Italiano",
    "pt": "Português", "nl": "Nederlands", "sv": "Svenska", "da": "Dansk", "no": "Norsk",
    "nb": "Norsk bokmål", "fi": "Suomi", "pl": "Polski", "cs": "Čeština", "ru": "Русский",
    "uk": "Українська", "ja": "日本語", "zh": "中文", "ko": "한국어", "ar": "العربية",
    "tr": "Türkçe", "el": "Ελληνικά", "hu": "Magyar", "ca": "Català", "la": "Latina",
}

#: The keys of the documented answers that hold a list of taxa (or of entries naming one).
LIST_KEYS = ("results", "favorites", "relatives", "children", "roots", "ancestors")


def language_label(code: str) -> str:
    """``"Español (es)"`` for ``"es"``; the bare code for languages without a known name."""
    name = LANGUAGE_NAMES.get(code)
    return f"{name} ({code})" if name else code


def primary_language(tag: Optional[str]) -> str:
    """The primary subtag of a language tag, lower case: ``"pt"`` for ``"pt-BR"`` or ``"pt_BR"``."""
    return (tag or "").replace("_", "-").split("-")[0].lower()


def conservation_words(status: Optional[str]) -> str:
    """``"Vulnerable (VU)"``, or ``"not assessed"`` when there is no status."""
    if not status:
        return "not assessed"
    words, _ = CONSERVATION.get(status, (status, ""))
    return f"{words} ({status})"


# -- taxa ---------------------------------------------------------------------------------------


def taxon_of(item: Dict[str, Any]) -> Dict[str, Any]:
    """The taxon an entry names: a ``compare/relatives`` entry's ``taxon``, else the entry itself
    (a ``Taxon``, a search result or a favourite)."""
    inner = item.get("taxon")
    return inner if isinstance(inner, dict) else item


def taxon_id(item: Any) -> Optional[int]:
    """The taxon id of a taxon, a search result, a relative (``id``) or a favourite (``taxonId``)."""
    if not isinstance(item, dict):
        return None
    taxon = taxon_of(item)
    for key in ("id", "taxonId"):
        value = taxon.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def listed(result: Any) -> Optional[List[Any]]:
    """The list a list answer carries (``results``, ``favorites``, ``relatives``…), or ``None``."""
    if isinstance(result, dict):
        for key in LIST_KEYS:
            if isinstance(result.get(key), list):
                return result[key]
    return None


def scientific_name(taxon: Dict[str, Any]) -> str:
    """The scientific name (``"?"`` for an unavailable favourite, which has none)."""
    return taxon.get("scientificName") or "?"


def disambiguation_suffix(taxon: Dict[str, Any]) -> str:
    """What tells a homonym from its namesakes, as the engine's ``disambiguation.display`` words
    it after the name: ``" (genus in Aves)"``; empty for a name no other taxon has."""
    display = (taxon.get("disambiguation") or {}).get("display")
    name = scientific_name(taxon)
    if not isinstance(display, str) or not display or display == name:
        return ""
    return display[len(name):] if display.startswith(name) else f" ({display})"


def is_italic(taxon: Dict[str, Any]) -> bool:
    """Whether the scientific name is written in italics (genera and below)."""
    return taxon.get("rank") in ITALIC_RANKS


def rank_word(taxon: Dict[str, Any]) -> str:
    """The rank, or ``"clade"`` for an unranked taxon."""
    return taxon.get("rank") or "clade"


def common_name(taxon: Dict[str, Any]) -> Optional[str]:
    """The preferred common name: ``preferredCommonName`` of a taxon or search result,
    ``commonName`` of a favourite; ``None`` when it has none."""
    for key in ("preferredCommonName", "commonName"):
        value = taxon.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def fallback_language(taxon: Dict[str, Any], lang: Optional[str]) -> Optional[str]:
    """The language of the common name when it is not the one asked for (the engine fell back to
    English): ``"en"``, to show beside the name; ``None`` when it is in ``lang`` or nothing was
    asked for."""
    if not lang or not common_name(taxon):
        return None
    name_lang = taxon.get("preferredCommonNameLang") or taxon.get("commonNameLang")
    if isinstance(name_lang, str) and name_lang and primary_language(name_lang) != primary_language(lang):
        return name_lang
    return None


class LabelParts(NamedTuple):
    """The parts of a one-line taxon label, for each front end to join and style."""

    rank: str
    name: str
    #: ``" (genus in Aves)"`` for a homonym, else empty.
    disambiguation: str
    italic: bool
    #: The common name when it differs from the scientific one.
    common: Optional[str]
    #: The common name's language when it fell back from the one asked for.
    common_lang: Optional[str]
    conservation: Optional[str]


def label_parts(item: Dict[str, Any], lang: Optional[str] = None) -> LabelParts:
    """The label parts of a taxon, search result, relative or favourite, names asked in ``lang``."""
    taxon = taxon_of(item)
    name = scientific_name(taxon)
    common = common_name(taxon)
    if common == name:
        common = None
    return LabelParts(rank_word(taxon), name, disambiguation_suffix(taxon), is_italic(taxon),
                      common, fallback_language(taxon, lang) if common else None,
                      taxon.get("conservationStatus") or None)


def plain_label(item: Dict[str, Any], lang: Optional[str] = None) -> str:
    """``species Panthera leo — Lion``, with ``[en]`` after a common name that fell back."""
    label = label_parts(item, lang)
    text = f"{label.rank} {label.name}{label.disambiguation}"
    if label.common:
        text += f" — {label.common}"
        if label.common_lang:
            text += f" [{label.common_lang}]"
    return text


def short_name(taxon: Dict[str, Any]) -> str:
    """``"Panthera leo (Lion)"``, or the scientific name alone."""
    name = scientific_name(taxon) + disambiguation_suffix(taxon)
    common = common_name(taxon)
    return f"{name} ({common})" if common and common != scientific_name(taxon) else name


# -- pictures -----------------------------------------------------------------------------------


class CreditLine(NamedTuple):
    """One line of a picture's credits: a label (empty for the credit itself) and the engine's
    words, with the address to link them to."""

    label: str
    words: str
    link: Optional[str] = None


def readable_link(url: str) -> str:
    """An address as a reader would type it: no ``https://``, escapes undone
    (``commons.wikimedia.org/wiki/File:Spielendes_Kätzchen.JPG``)."""
    text = urllib.parse.unquote(url)
    for scheme in ("https://", "http://"):
        if text.startswith(scheme):
            return text[len(scheme):]
    return text


def picture_credits(image: Dict[str, Any]) -> List[CreditLine]:
    """What must be shown with a ``media/image`` answer, in the engine's words: whose picture it
    is when it is the genus's, the credit (and the author when the credit does not name them),
    the licence, the source page and what the photo shows when it was matched by another name."""
    lines: List[CreditLine] = []
    fallback = image.get("fallbackFrom")
    if isinstance(fallback, dict):
        owner = f"{fallback.get('rank') or 'group'} {fallback.get('scientificName') or ''}"
        lines.append(CreditLine("", f"Picture of the {owner.strip()}"))
    credit = image.get("credit") or ""
    if credit:
        lines.append(CreditLine("", credit))
    author = image.get("author")
    if isinstance(author, str) and author and author not in credit:
        lines.append(CreditLine("By", author))
    lines.append(CreditLine("Licence", image.get("license") or "not given"))
    source = image.get("source")
    if isinstance(source, str) and source:
        lines.append(CreditLine("Source", readable_link(source), source))
    depicts = image.get("depicts")
    if isinstance(depicts, str) and depicts:
        lines.append(CreditLine("Shows", depicts))
    return lines


# -- comparisons --------------------------------------------------------------------------------


class ComparisonRow(NamedTuple):
    """One line of a drawn comparison: the tree's drawing, the taxon, and its mark."""

    #: Guides before a branch's taxon (``"│  "``, ``"   "``), drawn dim.
    indent: str
    #: ``"├─ "`` or ``"└─ "`` before a taxon below the ancestor; empty on the ancestor's line.
    connector: str
    taxon: Dict[str, Any]
    #: ``"← common ancestor"`` (with ``(A)``, ``(B)`` or ``(A and B)`` when the ancestor is one
    #: of them), ``"A"`` or ``"B"`` at a branch's end, else empty.
    mark: str


def comparison_rows(result: Dict[str, Any]) -> List[ComparisonRow]:
    """The two paths of a ``compare/taxa`` answer as two branches joining at the lowest common
    ancestor, which comes first::

        family Felidae  Cats                  ← common ancestor
        ├─ genus Panthera  Big cats
        │  └─ species Panthera leo  Lion      A
        └─ genus Felis
           └─ species Felis catus  Cat        B

    A taxon that is the other's ancestor is the ancestor with one branch.
    """
    lca = result.get("lca") or {}
    # Each path runs from the taxon up to and including the LCA: drop the LCA, go downwards.
    branch_a = list(reversed(list(result.get("pathFromA") or [])[:-1]))
    branch_b = list(reversed(list(result.get("pathFromB") or [])[:-1]))
    mark = "← common ancestor"
    if not branch_a and not branch_b:
        mark += "  (A and B)"
    elif not branch_a:
        mark += "  (A)"
    elif not branch_b:
        mark += "  (B)"
    rows = [ComparisonRow("", "", lca, mark)]
    branches = [(branch, tag) for branch, tag in ((branch_a, "A"), (branch_b, "B")) if branch]
    for index, (branch, tag) in enumerate(branches):
        last_branch = index == len(branches) - 1
        for depth, taxon in enumerate(branch):
            indent = ("   " if last_branch else "│  ") + "   " * (depth - 1) if depth else ""
            connector = ("└─ " if last_branch else "├─ ") if depth == 0 else "└─ "
            rows.append(ComparisonRow(indent, connector, taxon,
                                      tag if depth == len(branch) - 1 else ""))
    return rows


def distance_words(steps: Any) -> str:
    """``"2 steps through the tree"``."""
    return f"{steps} step{'s' if steps != 1 else ''} through the tree"


def similarity_words(value: Any) -> str:
    """Trait similarity as a percentage, or why there is none."""
    if value is None:
        return "not known (one of them has no traits recorded)"
    return f"{float(value) * 100:.0f}% of their traits are shared"


def comparison_facts(result: Dict[str, Any]) -> List[Tuple[str, str]]:
    """The facts under a drawn comparison, as (label, words): distance, shared clade, traits."""
    return [("Distance", distance_words(result.get("taxonomicDistance"))),
            ("Shared clade", str(result.get("sharedCladeDescription") or "")),
            ("Traits", similarity_words(result.get("traitSimilarity")))]


# -- sizes and errors ---------------------------------------------------------------------------


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
KIND_WORDS = {
    "taxonNotFound": "That taxon is not in the active database.",
    "notASpecies": "Relatives can only be found for a species.",
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
        words = KIND_WORDS.get(error.kind or "")
        detail = error.message or ""
        if words:
            return f"{words} ({error.kind})"
        return f"{detail} ({error.kind})" if error.kind else detail or str(error)
    if isinstance(error, StolClientError):
        return str(error)
    if isinstance(error, OSError):
        return f"{error.strerror or error} ({getattr(error, 'filename', '') or ''})".replace(" ()", "")
    return f"{type(error).__name__}: {error}"


def error_detail(error: BaseException) -> Optional[str]:
    """What the engine found, in its own words (the error's ``data.detail``: ``"wrong magic
    bytes"``), when it says; shown under :func:`error_message` where there is room."""
    data = error.data if isinstance(error, EngineError) else None
    detail = data.get("detail") if isinstance(data, dict) else None
    return detail if isinstance(detail, str) and detail else None

