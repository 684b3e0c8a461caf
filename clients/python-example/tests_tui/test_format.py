"""The browser's Rich drawing of the shared formatting, PNG decoding and half-block pictures."""

from __future__ import annotations

import struct
import zlib

from conftest import png

from stol_client.tui.picture import decode_png, half_blocks
from stol_client.tui.styled import comparison_lines, taxon_label


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
