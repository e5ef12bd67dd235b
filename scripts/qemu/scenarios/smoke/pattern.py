# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The smoke scenario's test picture, shared by host-prepare and host-check.

1280x800 (the bochs framebuffer's size). Top half: eight 160-pixel colour bars
(black, red, green, blue, yellow, cyan, magenta, white). Bottom half: a 40-pixel
black/white checkerboard on the left, a grey ramp 0..255 on the right. Colours,
byte order, orientation and stride all show in it.
"""

WIDTH, HEIGHT = 1280, 800
BARS = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255),
        (255, 255, 0), (0, 255, 255), (255, 0, 255), (255, 255, 255)]


def rows():
    """Yield each row as a list of (r, g, b)."""
    top = [BARS[x // 160] for x in range(WIDTH)]
    for y in range(HEIGHT):
        if y < HEIGHT // 2:
            yield top
        else:
            row = []
            for x in range(WIDTH):
                if x < WIDTH // 2:
                    v = 255 if ((x // 40) + (y // 40)) % 2 else 0
                else:
                    v = (x - WIDTH // 2) * 255 // (WIDTH // 2 - 1)
                row.append((v, v, v))
            yield row


def xrgb8888():
    """The picture as the bochs fbdev wants it: 32 bpp, little-endian XRGB
    (bytes B, G, R, X in memory), stride = 4 * WIDTH."""
    out = bytearray()
    for row in rows():
        for r, g, b in row:
            out += bytes((b, g, r, 0))
    return bytes(out)
