"""Drawing a media pack's picture in the terminal with half blocks (▀: the top pixel is the
foreground colour, the bottom one the background), standard library only.

PNG is decoded here (8-bit grey, grey+alpha, RGB and RGBA, not interlaced: what packs usually
hold); anything else (JPEG, palettes, 16-bit, interlaced) gives ``None`` and the browser shows a
text placeholder instead.
"""

from __future__ import annotations

import struct
import zlib
from typing import List, Optional, Tuple

from rich.style import Style
from rich.text import Text

Pixel = Tuple[int, int, int]

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def decode_png(data: bytes) -> Optional[Tuple[int, int, List[List[Pixel]]]]:
    """``(width, height, rows of RGB pixels)``, or ``None`` for a PNG this cannot read."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
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


def half_blocks(data: bytes, mime_type: str, max_columns: int = 40) -> Optional[Text]:
    """The picture as lines of ``▀`` cells at most ``max_columns`` wide, or ``None``."""
    if mime_type != "image/png":
        return None
    decoded = decode_png(data)
    if decoded is None:
        return None
    width, height, rows = decoded
    columns = max(1, min(max_columns, width))
    scale = width / columns
    lines = max(1, int(height / scale / 2))
    text = Text()
    for row in range(lines):
        for col in range(columns):
            x = min(width - 1, int(col * scale))
            top = rows[min(height - 1, int(row * 2 * scale))][x]
            bottom = rows[min(height - 1, int((row * 2 + 1) * scale))][x]
            text.append("▀", Style(color=f"rgb({top[0]},{top[1]},{top[2]})",
                                   bgcolor=f"rgb({bottom[0]},{bottom[1]},{bottom[2]})"))
        if row < lines - 1:
            text.append("\n")
    return text
