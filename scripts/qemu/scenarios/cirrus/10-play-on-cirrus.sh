# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The game on an RGB565 framebuffer: qemu's cirrus VGA with the real cirrus
# DRM driver, 1024x768, 16 bpp (red 11/5, green 5/6, blue 0/5), a 2048-byte
# line. The screendump (each channel widened to 8 bits) must equal the
# opening frame `tiltmaze snapshot --format rgb565` draws, below the status
# bar (host-check). Needs `run.py --vga cirrus`.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe cirrus
wait-for /dev/fb0
fb=/sys/class/graphics/fb0
echo "fb0: $(cat $fb/name), $(cat $fb/virtual_size), $(cat $fb/bits_per_pixel) bpp, stride $(cat $fb/stride)"
[ "$(cat $fb/bits_per_pixel)" = 16 ] || { echo "expected 16 bpp"; exit 1; }
game=$(start-game --display fb --source sim --level /scenario/still.txt)
wait_for "tty1 in graphics mode while tiltmaze plays" 'tty1_mode_is graphics'
screendump --like expected-play-cirrus 34 play-cirrus
stop-game "$game"
