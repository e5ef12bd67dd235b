# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The chain from kernel to screendump: the real bochs DRM driver (qemu -vga std)
# gives /dev/fb0 through DRM's fbdev emulation; a known picture written to it
# with plain dd must come back pixel-exact in the host's screendump
# (host-check compares it).
set -eu

modprobe bochs
wait-for /dev/fb0

fb=/sys/class/graphics/fb0
echo "fb0: $(cat $fb/name), $(cat $fb/virtual_size), $(cat $fb/bits_per_pixel) bpp, stride $(cat $fb/stride)"
[ "$(cat $fb/bits_per_pixel)" = 32 ] || { echo "expected 32 bpp"; exit 1; }
[ "$(cat $fb/virtual_size)" = 1280,800 ] || { echo "expected 1280x800"; exit 1; }
[ "$(cat $fb/stride)" = 5120 ] || { echo "expected a 5120-byte stride"; exit 1; }

# Keep the text console (fbcon) and its cursor off the picture: unbind it,
# and bind it again after, for the scenarios that follow (on arm64 no other
# console would draw on this display: theirs would show a stale picture).
fbcons=""
for vt in /sys/class/vtconsole/vtcon*; do
    if grep -q "frame buffer" "$vt/name"; then echo 0 > "$vt/bind"; fbcons="$fbcons $vt"; fi
done
rebind() { for vt in $fbcons; do echo 1 > "$vt/bind"; done; }
trap rebind EXIT

# One write() for the whole picture. Not row by row: this kernel's fbdev
# emulation turns a write() of exactly one full scan line into an empty damage
# rectangle (the end column comes out as 0), so such writes reach the fb memory
# but never the screen. `dd bs=5120` would show nothing.
dd if=pattern.xrgb8888 of=/dev/fb0 bs=4096000 count=1 2>/dev/null
screendump smoke-bochs
