"""Which taxa of a list have a picture, and the mark shown beside them in the Tree, Search,
Favourites and a Detail screen's relatives: one ``media/image {taxonIds, size: "thumbnail"}``
call per 50 rows fills a list."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Sequence

from rich.text import Text

from ..errors import InvalidParams, MethodNotFound
from .base import Browser

#: The most ids ``media/image`` takes in one call.
IDS_PER_CALL = 50

#: The mark of a taxon with a picture of its own, and of one shown its genus's picture.
OWN_MARK, GROUP_MARK = "▣", "▢"


async def pictures_of(browser: Browser, ids: Sequence[int]) -> Dict[int, Dict[str, Any]]:
    """The thumbnail of each of ``ids`` that has a picture, by taxon id. An engine that takes
    no lists of ids gives none (the list just has no marks)."""
    found: Dict[int, Dict[str, Any]] = {}
    for start in range(0, len(ids), IDS_PER_CALL):
        chunk = list(ids[start:start + IDS_PER_CALL])
        try:
            result = await browser.call("media/image", taxonIds=chunk, size="thumbnail")
        except (InvalidParams, MethodNotFound):
            return found
        for entry in (result or {}).get("images") or []:
            image, taxon_id = entry.get("image"), entry.get("taxonId")
            if isinstance(image, dict) and isinstance(taxon_id, int):
                found[taxon_id] = image
    return found


def picture_mark(image: Optional[Dict[str, Any]]) -> Text:
    """``▣`` for a taxon with a picture of its own, a dim ``▢`` for one shown its genus's, a
    space for one without."""
    if not image:
        return Text(" ")
    if image.get("fallbackFrom"):
        return Text(GROUP_MARK, style="dim")
    return Text(OWN_MARK, style="bold green")


def legend(images: Iterable[Dict[str, Any]]) -> Text:
    """What the marks of a list showing ``images`` mean, for its status line."""
    text = Text.assemble((OWN_MARK, "bold green"), " has a picture")
    if any(image.get("fallbackFrom") for image in images):
        text.append("  ")
        text.append(GROUP_MARK, style="dim")
        text.append(" its genus's picture")
    return text
