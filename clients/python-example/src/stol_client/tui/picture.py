"""Drawing a taxon's picture in the terminal with half blocks (▀: the top pixel is the
foreground colour, the bottom one the background), which any truecolour terminal shows.

JPEG (the engine's bundled photographs) and every other format are decoded with Pillow when it is
installed (the client's ``[tui]`` extra brings it); it is optional, and the client itself stays
standard library only. Without Pillow, PNG is decoded here (8-bit grey, grey+alpha, RGB and RGBA,
not interlaced: what media packs usually hold) and anything else is not drawn: :func:`draw` then
says what to install instead.
"""

from __future__ import annotations

import functools
import io
import struct
import warnings
import zlib
from types import ModuleType
from typing import List, NamedTuple, Optional, Tuple

from rich.style import Style
from rich.text import Text

Pixel = Tuple[int, int, int]

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}

#: The first bytes of every PNG file.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: Pictures with more pixels than this are not decoded (no engine answer holds one).
MAX_PIXELS = 40_000_000

#: What the reader is told when a picture needs Pillow to be drawn.
INSTALL_PILLOW = "picture: install Pillow to see it here (pip install pillow)"


class Drawing(NamedTuple):
    """A picture drawn for the terminal, or why it could not be."""

    #: Lines of ``▀`` cells, or ``None`` when the picture could not be drawn.
    picture: Optional[Text]
    #: Why there is no picture (:data:`INSTALL_PILLOW`, or that it cannot be read); ``None``
    #: when it was drawn.
    problem: Optional[str]


@functools.lru_cache(maxsize=None)
def pillow() -> Optional[ModuleType]:
    """Pillow's ``PIL.Image``, or ``None`` when Pillow is not installed (looked for once)."""
    try:
        from PIL import Image
    except ImportError:
        return None
    return Image


def decode_png(data: bytes) -> Optional[Tuple[int, int, List[List[Pixel]]]]:
    """``(width, height, rows of RGB pixels)``, or ``None`` for a PNG this cannot read."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body[:13])
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        return None
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace or width * height > 4_000_000:
        return None
    channels = _CHANNELS[colour]
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error:
        return None
    stride = width * channels
    if len(raw) < height * (stride + 1):
        return None
    rows: List[List[Pixel]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        previous = line
        pixels: List[Pixel] = []
        for x in range(width):
            px = line[x * channels:(x + 1) * channels]
            if channels <= 2:
                grey = px[0]
                rgb = (grey, grey, grey)
            else:
                rgb = (px[0], px[1], px[2])
            if channels in (2, 4):  # blend alpha onto black
                alpha = px[-1]
                rgb = tuple(c * alpha // 255 for c in rgb)  # type: ignore[assignment]
            pixels.append(rgb)
        rows.append(pixels)
    return width, height, rows


def fit(width: int, height: int, max_columns: int, max_rows: int) -> Tuple[int, int]:
    """``(columns, pixel rows)`` of a ``width`` × ``height`` picture drawn at most
    ``max_columns`` cells wide and ``max_rows`` lines high (two pixel rows a line), its shape
    kept and never enlarged across; the pixel rows are even."""
    columns = max(1, min(max_columns, width))
    pixel_rows = height * columns / width
    if pixel_rows > 2 * max_rows:
        pixel_rows = 2 * max_rows
        columns = max(1, min(columns, round(width * pixel_rows / height)))
    return columns, max(2, int(round(pixel_rows / 2)) * 2)


def _scaled(width: int, height: int, rows: List[List[Pixel]], columns: int,
            pixel_rows: int) -> List[List[Pixel]]:
    """``rows`` scaled to ``columns`` × ``pixel_rows``, each pixel the mean of those it covers."""
    def spans(size: int, count: int) -> List[Tuple[int, int]]:
        edges = [i * size // count for i in range(count + 1)]
        return [(edges[i], max(edges[i] + 1, edges[i + 1])) for i in range(count)]

    xs, ys = spans(width, columns), spans(height, pixel_rows)
    out: List[List[Pixel]] = []
    for y0, y1 in ys:
        line: List[Pixel] = []
        for x0, x1 in xs:
            cells = [rows[min(y, height - 1)][min(x, width - 1)]
                     for y in range(y0, y1) for x in range(x0, x1)]
            n = len(cells)
            line.append((sum(c[0] for c in cells) // n, sum(c[1] for c in cells) // n,
                         sum(c[2] for c in cells) // n))
        out.append(line)
    return out


def _with_pillow(image_module: ModuleType, data: bytes, max_columns: int,
                 max_rows: int) -> Optional[List[List[Pixel]]]:
    """The picture decoded and scaled by Pillow, alpha blended onto black; ``None`` when
    Pillow cannot read it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # decompression-bomb warnings: MAX_PIXELS decides
            with image_module.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width < 1 or height < 1 or width * height > MAX_PIXELS:
                    return None
                columns, pixel_rows = fit(width, height, max_columns, max_rows)
                image.draft("RGB", (columns, pixel_rows))  # JPEG: decode at a smaller scale
                image = image.convert("RGBA")
                black = image_module.new("RGBA", image.size, (0, 0, 0, 255))
                image = image_module.alpha_composite(black, image).convert("RGB")
                resampling = getattr(image_module, "Resampling", image_module)
                # Each cell the mean of the pixels it covers, as without Pillow.
                small = image.resize((columns, pixel_rows), resampling.BOX)
                raw = small.tobytes()
    except Exception:  # Pillow raises many kinds for a file it cannot read
        return None
    return [[(raw[i], raw[i + 1], raw[i + 2]) for i in range(row * columns * 3,
                                                             (row + 1) * columns * 3, 3)]
            for row in range(pixel_rows)]


def _half_blocks(pixels: List[List[Pixel]]) -> Text:
    """Pixel rows, two by two, as lines of ``▀``."""
    text = Text()
    for row in range(0, len(pixels) - 1, 2):
        if row:
            text.append("\n")
        for top, bottom in zip(pixels[row], pixels[row + 1]):
            text.append("▀", Style(color=f"rgb({top[0]},{top[1]},{top[2]})",
                                   bgcolor=f"rgb({bottom[0]},{bottom[1]},{bottom[2]})"))
    return text


def draw(data: bytes, mime_type: str, max_columns: int = 40, max_rows: int = 16) -> Drawing:
    """The picture in ``data`` (of type ``mime_type``) as half blocks at most ``max_columns``
    wide and ``max_rows`` lines high, or why it cannot be drawn."""
    image_module = pillow()
    if image_module is not None:
        pixels = _with_pillow(image_module, data, max_columns, max_rows)
        if pixels is None:
            return Drawing(None, f"picture: this {mime_type or 'file'} cannot be read")
        return Drawing(_half_blocks(pixels), None)
    if mime_type != "image/png":
        return Drawing(None, INSTALL_PILLOW)
    decoded = decode_png(data)
    if decoded is None:  # a kind of PNG only Pillow reads (palette, 16-bit…), or a broken one
        return Drawing(None, INSTALL_PILLOW if data.startswith(PNG_SIGNATURE)
                       else "picture: this image/png cannot be read")
    width, height, rows = decoded
    columns, pixel_rows = fit(width, height, max_columns, max_rows)
    return Drawing(_half_blocks(_scaled(width, height, rows, columns, pixel_rows)), None)


def half_blocks(data: bytes, mime_type: str, max_columns: int = 40,
                max_rows: int = 16) -> Optional[Text]:
    """The picture as lines of ``▀`` cells (:func:`draw`), or ``None`` when it cannot be drawn."""
    return draw(data, mime_type, max_columns, max_rows).picture
