"""The shared formatting (:mod:`stol_client.format`) drawn as Rich text for the browser:
conservation badges, italic scientific names, one-line taxon labels, breadcrumbs, the two-branch
drawing of a comparison and a picture's credits."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from rich.style import Style
from rich.text import Text

from ..format import (CONSERVATION, CreditLine, comparison_rows, disambiguation_suffix, is_italic,
                      label_parts, scientific_name, taxon_of)


def badge(status: Optional[str]) -> Text:
    """A coloured IUCN badge such as `` VU ``, or empty text when the taxon has no status."""
    if not status:
        return Text("")
    _, style = CONSERVATION.get(status, (status, "reverse"))
    return Text(f" {status} ", style=style)


def scientific(taxon: Dict[str, Any]) -> Text:
    """The scientific name, italic for genera and below as taxonomists write them, then (dim) what
    tells a homonym from its namesakes."""
    text = Text(scientific_name(taxon), style="italic" if is_italic(taxon) else "")
    suffix = disambiguation_suffix(taxon)
    if suffix:
        text.append(suffix, style="dim")
    return text


def common(item: Dict[str, Any], lang: Optional[str] = None, style: str = "") -> Text:
    """The common name, with ``[en]`` (dim) when it fell back from ``lang``; empty text when the
    taxon has none."""
    label = label_parts(item, lang)
    text = Text(label.common or "", style=style)
    if label.common_lang:
        text.append(f" [{label.common_lang}]", style="dim")
    return text


def taxon_label(item: Dict[str, Any], lang: Optional[str] = None, *, show_rank: bool = True,
                show_badge: bool = True) -> Text:
    """One line for a taxon: ``rank  Scientific name  Common name  [VU]``."""
    label = label_parts(item, lang)
    text = Text()
    if show_rank:
        text.append(f"{label.rank} ", style="dim")
    text.append_text(scientific(taxon_of(item)))
    if label.common:
        text.append("  ")
        text.append_text(common(item, lang, style="bold"))
    if show_badge and label.conservation:
        text.append(" ")
        text.append_text(badge(label.conservation))
    return text


def breadcrumb(path: Iterable[Dict[str, Any]]) -> Text:
    """``Eukaryota › Animalia › Chordata``: a path of taxa, root first."""
    text = Text()
    for i, taxon in enumerate(path):
        if i:
            text.append(" › ", style="dim")
        text.append_text(scientific(taxon))
    return text


def comparison_lines(result: Dict[str, Any], lang: Optional[str] = None) -> List[Text]:
    """A ``compare/taxa`` answer drawn as :func:`~stol_client.format.comparison_rows` lays it out:
    the guides dim, each taxon as :func:`taxon_label`, the marks bold cyan."""
    lines: List[Text] = []
    for row in comparison_rows(result):
        line = Text(row.indent + row.connector, style="dim")
        line.append_text(taxon_label(row.taxon, lang))
        if row.mark:
            line.append(f"  {row.mark}", style="bold cyan")
        lines.append(line)
    return lines


def credits_text(lines: Iterable[CreditLine]) -> Text:
    """A picture's credits (:func:`~stol_client.format.picture_credits`), one a line: labels
    bold, the source page a link (terminals that know links open it on click)."""
    text = Text()
    for i, line in enumerate(lines):
        if i:
            text.append("\n")
        if line.label:
            text.append(f"{line.label}: ", style="bold")
        text.append(line.words, style=Style(link=line.link, underline=True) if line.link else "")
    return text
