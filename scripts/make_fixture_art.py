#!/usr/bin/env python3
"""Draws the fixture module's map art (tests/fixtures/fixture_module/art/map.png) and prints
the <art> element of its map.xml.

The art is deliberately NOT aligned with the screen: each hex of the 8 x 6 flat-top grid is
painted in its own colour with a white dot at its centre, under a known affine map (3 degrees
of rotation, 22 px across and 21.3 px down per unit hex size, an offset). The three <anchor>
elements give the pixel positions of three hex centres under that map, so the loader derives
it back, and the GUI test (tests/gui/map_art.txt) samples the screen at hex centres (the dot)
and half-way to the rim (the hex's colour): the art is drawn aligned with the grid or the test
fails. The colours are hex_colour() below; the test names them.

Usage: scripts/make_fixture_art.py [OUT.png]    (Python 3, standard library only)
"""
import math
import struct
import sys
import zlib

COLS, ROWS = 8, 6
SQRT3 = math.sqrt(3.0)
ANGLE = math.radians(3.0)
SCALE_X, SCALE_Y = 22.0, 21.3
OFFSET = (38.0, 30.0)
WIDTH, HEIGHT = 320, 290
PAPER = (226, 214, 182)
EDGE = (90, 80, 70)
DOT = (250, 250, 250)


def hex_colour(col, row):
    """The colour of offset hex (col, row), 0-based; label = (col+1, row+1) as CCRR."""
    return (60 + 25 * col, 70 + 30 * row, 150 + (col * 37 + row * 53) % 100)


def to_layout(col, row):
    """Offset (odd-q, flat-top) -> layout point with hex size 1, as hex::to_pixel."""
    q = col
    r = row - (col - (col & 1)) // 2
    return 1.5 * q, SQRT3 * (0.5 * q + r)


def to_image(x, y):
    """Layout point -> image pixel: rotate(ANGLE) * diag(SCALE_X, SCALE_Y) + OFFSET."""
    sx, sy = x * SCALE_X, y * SCALE_Y
    c, s = math.cos(ANGLE), math.sin(ANGLE)
    return c * sx - s * sy + OFFSET[0], s * sx + c * sy + OFFSET[1]


def from_image(u, v):
    c, s = math.cos(ANGLE), math.sin(ANGLE)
    u, v = u - OFFSET[0], v - OFFSET[1]
    return (c * u + s * v) / SCALE_X, (-s * u + c * v) / SCALE_Y


def hex_at(x, y):
    """Layout point -> (col, row, distance-from-centre as a fraction of the hex radius)."""
    q = 2.0 / 3.0 * x
    r = -1.0 / 3.0 * x + SQRT3 / 3.0 * y
    cx, cz = q, r
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    col = int(rx)
    row = int(rz) + (col - (col & 1)) // 2
    px, py = to_layout(col, row)
    # Distance to the rim as a fraction of the apothem: 1 on the hex's edges (whose normals
    # point at 30, 90 and 150 degrees on a flat-top hex).
    ddx, ddy = x - px, y - py
    h = SQRT3 / 2
    rim = max(abs(h * ddx + 0.5 * ddy), abs(ddy), abs(-h * ddx + 0.5 * ddy)) / h
    return col, row, math.hypot(ddx, ddy), rim


def render():
    rows = []
    for v in range(HEIGHT):
        line = bytearray([0])  # PNG filter: none
        for u in range(WIDTH):
            x, y = from_image(u + 0.5, v + 0.5)
            col, row, dist, rim = hex_at(x, y)
            if not (0 <= col < COLS and 0 <= row < ROWS):
                rgb = PAPER
            elif dist < 0.22:
                rgb = DOT
            elif rim > 0.93:
                rgb = EDGE
            else:
                rgb = hex_colour(col, row)
            line += bytes(rgb)
        rows.append(bytes(line))
    return b"".join(rows)


def png(width, height, raw):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) +
            chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/fixture_module/art/map.png"
    with open(out, "wb") as f:
        f.write(png(WIDTH, HEIGHT, render()))
    print('  <art file="art/map.png">')
    for col, row in ((0, 0), (7, 0), (0, 5)):
        u, v = to_image(*to_layout(col, row))
        print('    <anchor hex="%02d%02d" x="%.2f" y="%.2f"/>' % (col + 1, row + 1, u, v))
    print("  </art>")


if __name__ == "__main__":
    main()
