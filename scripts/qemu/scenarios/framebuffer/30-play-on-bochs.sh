# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The game on a real kernel's framebuffer: bochs DRM fbdev emulation, 32 bpp
# XRGB8888, 1280x800 with a 5120-byte line. tiltmaze runs on the console with
# --display fb; the screendump must equal the opening frame `tiltmaze
# snapshot` draws for the same size and format (host-check), the status line
# aside (its clock runs). The console must be in graphics mode while it plays
# and back in text mode after; SIGTERM must end it cleanly.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
wait-for /dev/fb0
game=$(start-game --display fb --source sim --level /scenario/still.txt)
wait_for "tty1 in graphics mode while tiltmaze plays" 'tty1_mode_is graphics'
screendump --like expected-play-bochs 34 play-bochs
stop-game "$game"
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
