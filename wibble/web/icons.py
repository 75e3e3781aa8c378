"""The home-screen icons, drawn here and committed in static/icons/: a letter tile with a W on it.

One drawing, written twice: as SVG (any size) and as PNG at the sizes a phone asks for, made
with the standard library alone (zlib and struct), since the server needs no imaging library.
The tile sits inside the middle 80% of a full-bleed square, so the same PNG serves as a
"maskable" icon that a phone may cut to a circle or a squircle.

Run ``python -m wibble.web.icons static/icons`` after changing the drawing;
tests/web/test_installable.py checks that the committed files are what this draws.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

BACKGROUND = (0x2F, 0x5D, 0x8A)  # --accent
TILE = (0xFF, 0xFA, 0xF0)  # --tile
EDGE = (0xD8, 0xCD, 0xB8)  # --tile-edge
INK = (0x1D, 0x24, 0x30)  # --tile-ink

# In a 100-unit square: the tile, its corner radius and edge, and the W as one stroked line.
TILE_BOX = (18.0, 18.0, 82.0, 82.0)
TILE_RADIUS = 12.0
EDGE_WIDTH = 2.5
W_POINTS = ((30.0, 34.0), (39.0, 67.0), (50.0, 44.0), (61.0, 67.0), (70.0, 34.0))
W_WIDTH = 7.0
SIZES = (192, 512)


def svg() -> str:
    x0, y0, x1, y1 = TILE_BOX
    points = " ".join(f"{x:g},{y:g}" for x, y in W_POINTS)
    inset = EDGE_WIDTH / 2
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{_hex(BACKGROUND)}"/>'
        f'<rect x="{x0 + inset:g}" y="{y0 + inset:g}" width="{x1 - x0 - 2 * inset:g}" '
        f'height="{y1 - y0 - 2 * inset:g}" rx="{TILE_RADIUS - inset:g}" fill="{_hex(TILE)}" '
        f'stroke="{_hex(EDGE)}" stroke-width="{EDGE_WIDTH:g}"/>'
        f'<polyline points="{points}" fill="none" stroke="{_hex(INK)}" stroke-width="{W_WIDTH:g}" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
        "</svg>\n"
    )


def png(size: int) -> bytes:
    """The icon as an RGB PNG of ``size`` pixels square, edges smoothed by coverage."""
    scale = size / 100
    rows = []
    for py in range(size):
        row = bytearray(b"\x00")  # filter: none
        y = (py + 0.5) / scale
        for px in range(size):
            x = (px + 0.5) / scale
            colour = _pixel(x, y, scale)
            row += bytes(colour)
        rows.append(bytes(row))
    raw = b"".join(rows)
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def _pixel(x: float, y: float, scale: float) -> tuple[int, int, int]:
    tile = _rounded_box(x, y)  # signed distance, negative inside
    colour = BACKGROUND
    colour = _mix(colour, EDGE, _coverage(-tile, scale))
    colour = _mix(colour, TILE, _coverage(-tile - EDGE_WIDTH, scale))
    line = min(_segment(x, y, a, b) for a, b in zip(W_POINTS, W_POINTS[1:], strict=False))
    return _mix(colour, INK, _coverage(W_WIDTH / 2 - line, scale))


def _rounded_box(x: float, y: float) -> float:
    x0, y0, x1, y1 = TILE_BOX
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - TILE_RADIUS, (y1 - y0) / 2 - TILE_RADIUS
    dx, dy = abs(x - cx) - hx, abs(y - cy) - hy
    outside = math.hypot(max(dx, 0.0), max(dy, 0.0))
    return outside + min(max(dx, dy), 0.0) - TILE_RADIUS


def _segment(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    (ax, ay), (bx, by) = a, b
    vx, vy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
    return math.hypot(x - ax - t * vx, y - ay - t * vy)


def _coverage(inside: float, scale: float) -> float:
    """How much of a pixel lies ``inside`` units within a shape's edge (half a pixel either way)."""
    return max(0.0, min(1.0, inside * scale + 0.5))


def _mix(under: tuple[int, int, int], over: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    if amount <= 0:
        return under
    r, g, b = (round(u + (o - u) * amount) for u, o in zip(under, over, strict=True))
    return (r, g, b)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _hex(colour: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in colour)


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "icon.svg"]
    written[0].write_text(svg(), encoding="utf-8")
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        path.write_bytes(png(size))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "static/icons")):
        print(path)
