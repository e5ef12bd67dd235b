# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The pictures the qemu tier judges (QMP screendumps, tiltmaze snapshot's
PNGs), read with pypng (Debian's python3-png), and the judges run.py and
the host-check hooks share."""
import importlib.util
import os
import sys
import zlib

try:
    import png
except ImportError:
    # Debian's python3-png puts png.py where Debian's python3 looks. A
    # python3 from elsewhere first on PATH (pyenv's, on this project's
    # machines and so in CI) looks elsewhere: it is given Debian's file,
    # pure Python for any Python 3.
    DEBIAN_PNG = "/usr/lib/python3/dist-packages/png.py"
    if not os.path.exists(DEBIAN_PNG):
        raise ImportError(f"pngread.py needs pypng: Debian's python3-png (scripts/install-deps.sh test installs it), "
                          f"for this python3 ({sys.executable}) or as {DEBIAN_PNG}") from None
    spec = importlib.util.spec_from_file_location("png", DEBIAN_PNG)
    png = importlib.util.module_from_spec(spec)
    sys.modules["png"] = png
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in /usr/lib
    try:
        spec.loader.exec_module(png)
    finally:
        sys.dont_write_bytecode = writes


def read_png(path):
    """A PNG's (width, height, rows): each row its pixels' red, green and
    blue bytes, an alpha channel dropped (not blended). Any PNG pypng reads:
    greyscale and palettes expanded, 16 bits scaled to 8, interlacing undone.
    An sBIT chunk is not applied (pypng would rescale by it: with RGB565's
    5, 6, 5 significant bits, 248 would read as 251): the values are those
    stored, so that a picture with one still equals a screendump (qemu
    writes none). A file that is no PNG, is truncated or fails a checksum:
    ValueError naming it."""
    with open(path, "rb") as f:
        reader = png.Reader(file=f)
        try:
            reader.preamble()
            reader.sbit = None  # what the preamble kept of an sBIT chunk, asDirect's cue to rescale
            w, h, pixels, _ = reader.asRGBA8()
            rows = []
            for row in pixels:
                row = bytearray(row)
                del row[3::4]
                rows.append(bytes(row))
        except (png.Error, EOFError, zlib.error) as e:
            raise ValueError(f"{path}: not a PNG that can be read: {e}") from None
    if len(rows) != h or any(len(row) != 3 * w for row in rows):
        raise ValueError(f"{path}: truncated: {len(rows)} rows of the {h} its header gives")
    return w, h, rows


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
