"""The browser's pure helpers: the two-branch comparison drawing, readable errors, PNG decoding
and half-block pictures."""

from __future__ import annotations

import struct
import zlib

from conftest import png

from stol_client.errors import EngineError, EngineExited
from stol_client.tui.format import comparison_lines, error_message, similarity_words
from stol_client.tui.picture import decode_png, half_blocks


def taxon(name, rank):
    return {"scientificName": name, "rank": rank}


def test_comparison_draws_two_branches_joining_at_the_ancestor():
    felidae, panthera, felis = taxon("Felidae", "family"), taxon("Panthera", "genus"), taxon("Felis", "genus")
    leo, catus = taxon("Panthera leo", "species"), taxon("Felis catus", "species")
    lines = [line.plain for line in comparison_lines(
        {"lca": felidae, "pathFromA": [leo, panthera, felidae], "pathFromB": [catus, felis, felidae]})]
    assert lines == [
        "family Felidae  ← common ancestor",
        "├─ genus Panthera",
        "│  └─ species Panthera leo  A",
        "└─ genus Felis",
        "   └─ species Felis catus  B",
    ]


def test_comparison_of_an_ancestor_and_of_one_taxon():
    panthera, leo = taxon("Panthera", "genus"), taxon("Panthera leo", "species")
    lines = [line.plain for line in comparison_lines(
        {"lca": panthera, "pathFromA": [panthera], "pathFromB": [leo, panthera]})]
    assert lines == ["genus Panthera  ← common ancestor  (A)", "└─ species Panthera leo  B"]
    same = comparison_lines({"lca": leo, "pathFromA": [leo], "pathFromB": [leo]})
    assert [line.plain for line in same] == ["species Panthera leo  ← common ancestor  (A and B)"]


def test_similarity_words():
    assert similarity_words(None).startswith("not known")
    assert similarity_words(0.5) == "50% of their traits are shared"


def test_error_messages_are_sentences_with_the_kind():
    assert error_message(EngineError(-32002, "Not found", {"kind": "taxonNotFound", "id": 42})) \
        == "That taxon is not in the active database. (taxonNotFound)"
    assert error_message(EngineError(-32003, "Odd thing", {"kind": "somethingNew"})) \
        == "Odd thing (somethingNew)"
    assert "Ctrl+R" in error_message(EngineExited(1))


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
