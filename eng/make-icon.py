#!/usr/bin/env python3
"""Draws the package icon, src/NetZeroMQ/icon.png: a 128x128 PNG made here from plain geometry (no image files or tools
from elsewhere), so the icon is reproducible and reviewable. A slashed ring (the zero of ZeroMQ) on a rounded square.
    eng/make-icon.py            (rewrites the file; the output is byte-identical on every run)"""
import os
import struct
import zlib

SIZE = 128
SAMPLES = 4  # per axis: 16 samples per pixel smooth the edges

BACKGROUND = (0x1B, 0x3A, 0x5C)  # deep blue
FOREGROUND = (0xF2, 0xF5, 0xF8)  # near white


def inside_rounded_square(x, y):
    radius, margin = 22.0, 2.0
    lo, hi = margin + radius, SIZE - margin - radius
    cx = min(max(x, lo), hi)
    cy = min(max(y, lo), hi)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 and margin <= x <= SIZE - margin and margin <= y <= SIZE - margin


def on_symbol(x, y):
    c = SIZE / 2.0
    dx, dy = x - c, y - c
    distance = (dx * dx + dy * dy) ** 0.5
    ring = 30.0 <= distance <= 44.0
    # The slash: a band along the rising diagonal, a little longer than the ring.
    along = (dx - dy) / 2 ** 0.5
    across = (dx + dy) / 2 ** 0.5
    slash = abs(across) <= 6.5 and abs(along) <= 54.0
    return ring or slash


def pixel(px, py):
    shape = symbol = 0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = px + (sx + 0.5) / SAMPLES
            y = py + (sy + 0.5) / SAMPLES
            if inside_rounded_square(x, y):
                shape += 1
                if on_symbol(x, y):
                    symbol += 1
    total = SAMPLES * SAMPLES
    if shape == 0:
        return (0, 0, 0, 0)
    t = symbol / shape
    rgb = tuple(round(b + (f - b) * t) for b, f in zip(BACKGROUND, FOREGROUND))
    return rgb + (round(255 * shape / total),)


def png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(v for p in row for v in p) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    rows = [[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "NetZeroMQ", "icon.png")
    with open(path, "wb") as f:
        f.write(png(SIZE, SIZE, rows))
    print(os.path.normpath(path))
