# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""A minimal PNG reader for the host-check hooks (python3's standard library
has none): 8-bit RGB or RGBA, not interlaced, as QMP screendumps and
tiltmaze's snapshots are."""
import os
import struct
import zlib


def read_png(path):
    """Minimal PNG reader (8-bit RGB or RGBA, not interlaced) -> (w, h, rows of RGB bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {ctype}, interlace {interlace}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = []
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif ftype != 0:
            raise ValueError(f"bad filter {ftype}")
        prev = line
        if bpp == 4:
            del line[3::4]
        out.append(bytes(line))
    return w, h, out


def equal_below(got_path, expected_path, first_row):
    """Whether two PNGs of the same size are equal pixel for pixel from row
    `first_row` down (above it: a status bar whose clock runs); and a line saying so."""
    w, h, got = read_png(got_path)
    ew, eh, expected = read_png(expected_path)
    if (w, h) != (ew, eh):
        return False, f"{got_path} is {w}x{h}, {expected_path} {ew}x{eh}"
    bad = [y for y in range(first_row, h) if got[y] != expected[y]]
    if bad:
        return False, f"{len(bad)} rows of {got_path} below row {first_row} differ from {expected_path}, first at row {bad[0]}"
    return True, f"{os.path.basename(got_path)} equals {os.path.basename(expected_path)} below row {first_row} ({w}x{h})"


def share_equal_below(got_path, expected_path, first_row):
    """The share of pixels two PNGs of the same size have equal between row
    `first_row` and as many rows from the bottom (the status and hint bars
    left out): for a screen whose ghosts patrol, never equal as a whole."""
    w, h, got = read_png(got_path)
    ew, eh, expected = read_png(expected_path)
    if (w, h) != (ew, eh):
        raise ValueError(f"{got_path} is {w}x{h}, {expected_path} {ew}x{eh}")
    same = total = 0
    for y in range(first_row, h - first_row):
        a, b = got[y], expected[y]
        for x in range(0, 3 * w, 3):
            total += 1
            same += a[x:x + 3] == b[x:x + 3]
    return same / total


def lit_rows(path, first_row=0):
    """The rows of a PNG from `first_row` down that have any pixel lit."""
    _, _, rows = read_png(path)
    return [y for y in range(first_row, len(rows)) if any(rows[y])]


BARS = 34  # the status and hint bars at 800 rows, each (13 + 4) x 2 rows


def ball_position(path):
    """The mean x of the ball (played with --player ball: its bright grey
    pixels between the status and hint bars) in a screendump, and the picture's width."""
    w, h, rows = read_png(path)
    xs = []
    for y in range(BARS, h - BARS):
        row = rows[y]
        for x in range(w):
            r, g, b = row[3 * x:3 * x + 3]
            if min(r, g, b) > 170 and max(r, g, b) - min(r, g, b) < 40:
                xs.append(x)
    if not xs:
        raise ValueError(f"{path}: no ball to be seen")
    return sum(xs) / len(xs), w


def pacman_position(path):
    """The mean (x, y) of the pacman (the default player: its yellow,
    GamePalette.pacman, 255 225 0) between the status and hint bars in a
    screendump, and the picture's height."""
    w, h, rows = read_png(path)
    xs, ys = [], []
    for y in range(BARS, h - BARS):
        row = rows[y]
        for x in range(w):
            r, g, b = row[3 * x:3 * x + 3]
            if r > 240 and 210 < g < 240 and b < 40:
                xs.append(x)
                ys.append(y)
    if not xs:
        raise ValueError(f"{path}: no pacman to be seen")
    return (sum(xs) / len(xs), sum(ys) / len(ys)), h
