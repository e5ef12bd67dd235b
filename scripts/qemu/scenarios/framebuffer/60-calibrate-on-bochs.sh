# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The calibration screen on the same real framebuffer: drawn through the
# display seam as the game is (host-check looks for its title bar, the
# framed arena and the test square resting in its middle), the console in
# graphics mode while it runs and in text mode after SIGTERM.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
wait-for /dev/fb0
game=$(GAME_COMMAND=calibrate start-game --display fb --source sim)
wait_for "tty1 in graphics mode while calibrate runs" 'tty1_mode_is graphics'
screendump --settled-below 34 calibrate-bochs
stop-game "$game"
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
