"""The browser's Rich drawing of the shared formatting, PNG decoding and half-block pictures."""

from __future__ import annotations

import struct
import zlib

from conftest import png

import io

import pytest
from PIL import Image
from rich.style import Style

from stol_client.format import CreditLine
from stol_client.tui import picture
from stol_client.tui.picture import INSTALL_PILLOW, decode_png, draw, fit, half_blocks
from stol_client.tui.picture_marks import GROUP_MARK, OWN_MARK, legend, picture_mark
from stol_client.tui.styled import comparison_lines, credits_text, taxon_label


def taxon(name, rank, **more):
    return {"scientificName": name, "rank": rank, **more}


def test_comparison_draws_two_branches_joining_at_the_ancestor():
    felidae, panthera, felis = taxon("Felidae", "family"), taxon("Panthera", "genus"), taxon("Felis", "genus")
    leo, catus = taxon("Panthera leo", "species"), taxon("Felis catus", "species")
    lines = comparison_lines({"lca": felidae, "pathFromA": [leo, panthera, felidae],
                              "pathFromB": [catus, felis, felidae]})
    assert [line.plain for line in lines] == [
        "family Felidae  ← common ancestor",
        "├─ genus Panthera",
        "│  └─ species Panthera leo  A",
        "└─ genus Felis",
        "   └─ species Felis catus  B",
    ]
    leo_line = lines[2]
    italic = [leo_line.plain[span.start:span.end] for span in leo_line.spans if "italic" in str(span.style)]
    assert italic == ["Panthera leo"]


def test_a_label_marks_a_name_that_fell_back_to_english():
    anteater = taxon("Cyclopes didactylus", "species", preferredCommonName="Silky anteater",
                     preferredCommonNameLang="en", conservationStatus="LC")
    assert taxon_label(anteater, "fr").plain == "species Cyclopes didactylus  Silky anteater [en]  LC "
    assert taxon_label(anteater, "en").plain == "species Cyclopes didactylus  Silky anteater  LC "


def test_decode_png_undoes_every_row_filter():
    width, height = 3, 5
    pixels = [[((x * 40 + y * 7) % 256, (x * 90) % 256, (y * 50) % 256) for x in range(width)]
              for y in range(height)]
    stride = width * 3
    rows = [bytes(c for p in row for c in p) for row in pixels]
    raw = b""
    previous = bytes(stride)
    for y, (row, kind) in enumerate(zip(rows, (0, 1, 2, 3, 4))):
        out = bytearray()
        for i in range(stride):
            left = row[i - 3] if i >= 3 else 0
            up = previous[i]
            corner = previous[i - 3] if i >= 3 else 0
            if kind == 0:
                predicted = 0
            elif kind == 1:
                predicted = left
            elif kind == 2:
                predicted = up
            elif kind == 3:
                predicted = (left + up) // 2
            else:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predicted = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            out.append((row[i] - predicted) & 0xFF)
        raw += bytes([kind]) + bytes(out)
        previous = row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    assert decode_png(data) == (width, height, pixels)


def test_half_blocks_colour_top_and_bottom_pixels():
    picture = half_blocks(png(2, 2, lambda x, y: (255, 0, 0) if y == 0 else (0, 0, 255)), "image/png")
    assert picture.plain == "▀▀"
    styles = [span.style for span in picture.spans]
    assert len(styles) == 2
    for style in styles:
        assert style.color.triplet == (255, 0, 0) and style.bgcolor.triplet == (0, 0, 255)


def test_pictures_that_cannot_be_drawn_give_none():
    assert half_blocks(b"\xff\xd8\xff", "image/jpeg") is None
    assert half_blocks(b"not a png", "image/png") is None


def jpeg(width, height, pixel) -> bytes:
    image = Image.new("RGB", (width, height))
    image.putdata([pixel(x, y) for y in range(height) for x in range(width)])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95)
    return out.getvalue()


def colours(text):
    return [(span.style.color.triplet, span.style.bgcolor.triplet) for span in text.spans]


def test_a_picture_fits_its_box_keeps_its_shape_and_is_never_enlarged_across():
    assert fit(160, 120, 40, 16) == (40, 30)      # 4:3 at 40 cells: 15 lines
    assert fit(160, 120, 80, 16) == (43, 32)      # 16 lines at most: narrower instead
    assert fit(8, 8, 40, 16) == (8, 8)            # small stays small
    assert fit(100, 1, 40, 16) == (40, 2)         # at least one line
    assert fit(120, 160, 44, 20) == (30, 40)      # a portrait photograph


@pytest.mark.parametrize("with_pillow", [True, False])
def test_a_png_is_drawn_with_or_without_pillow(monkeypatch, with_pillow):
    if not with_pillow:
        monkeypatch.setattr(picture, "pillow", lambda: None)
    # Left half red, right half green; top half of each dark, bottom half light: 8 × 4 px.
    data = png(8, 4, lambda x, y: ((200, 0, 0) if x < 4 else (0, 200, 0)) if y < 2
               else ((255, 100, 100) if x < 4 else (100, 255, 100)))
    drawing = draw(data, "image/png", max_columns=4)
    assert drawing.problem is None
    assert drawing.picture.plain == "▀▀▀▀"
    assert colours(drawing.picture) == [((200, 0, 0), (255, 100, 100))] * 2 \
        + [((0, 200, 0), (100, 255, 100))] * 2


def test_a_jpeg_is_drawn_with_pillow_and_without_it_says_to_install_pillow(monkeypatch):
    data = jpeg(32, 16, lambda x, y: (0, 0, 230) if y < 8 else (240, 240, 0))
    drawing = draw(data, "image/jpeg", max_columns=16)
    assert drawing.problem is None and drawing.picture.plain == "▀" * 16 + "\n" + "▀" * 16 \
        + "\n" + "▀" * 16 + "\n" + "▀" * 16
    (top, bottom), (last_top, last_bottom) = colours(drawing.picture)[0], colours(drawing.picture)[-1]
    assert all(c[2] > 200 and c[0] < 40 for c in (top, bottom)), "blue above"
    assert all(c[0] > 200 and c[2] < 40 for c in (last_top, last_bottom)), "yellow below"
    monkeypatch.setattr(picture, "pillow", lambda: None)
    assert draw(data, "image/jpeg") == (None, INSTALL_PILLOW)


def test_what_cannot_be_read_is_said_not_raised():
    assert draw(b"\xff\xd8\xff garbage", "image/jpeg").problem == \
        "picture: this image/jpeg cannot be read"
    assert draw(b"", "").problem == "picture: this file cannot be read"


def test_credits_link_the_source_page():
    text = credits_text([CreditLine("", "Photo: A"), CreditLine("Licence", "CC0-1.0"),
                         CreditLine("Source", "example.org/p", "https://example.org/p")])
    assert text.plain == "Photo: A\nLicence: CC0-1.0\nSource: example.org/p"
    links = [(text.plain[s.start:s.end], s.style.link) for s in text.spans
             if isinstance(s.style, Style) and s.style.link]
    assert links == [("example.org/p", "https://example.org/p")]


def test_marks_tell_a_taxons_own_picture_from_its_genuss():
    own = {"taxonId": 1, "credit": "c", "license": "l"}
    genus = {"taxonId": 2, "credit": "c", "license": "l",
             "fallbackFrom": {"taxonId": 2, "rank": "genus", "scientificName": "Panthera"}}
    assert [picture_mark(i).plain for i in (own, genus, None)] == [OWN_MARK, GROUP_MARK, " "]
    assert legend([own]).plain == f"{OWN_MARK} has a picture"
    assert legend([own, genus]).plain == f"{OWN_MARK} has a picture  {GROUP_MARK} its genus's picture"
