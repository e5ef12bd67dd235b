# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The game through KMS on another DRM driver: qemu's virtio-vga with the real
# virtio-gpu driver (a paravirtual GPU whose page flips reach the screen as a
# resource flush, unlike bochs's register writes). The settled frame must
# equal `tiltmaze snapshot`'s at the mode's size below the status bar
# (host-check); SIGTERM ends it with status 0 and the console in text mode.
# Needs `run.py --vga virtio`, so it is a boot of its own.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe virtio_pci
modprobe virtio-gpu
wait-for /dev/dri/card0
card=/sys/class/drm/card0
for c in "$card"-*; do echo "$(basename "$c"): $(cat "$c/status"), modes $(head -1 "$c/modes")"; done
game=$(start-game --display kms --source sim --level /scenario/still.txt)
wait-kms-flip
tty1_mode_is graphics || { echo "tty1 is not in graphics mode while tiltmaze plays on KMS"; exit 1; }
screendump --like expected-play-virtio 34 play-virtio
stop-game "$game"
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
