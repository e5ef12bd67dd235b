# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# The calibration screen on the same real framebuffer: drawn through the
# display seam as the game is (host-check looks for its title bar, the
# framed arena and the test square resting in its middle), the console in
# graphics mode while it runs and in text mode after SIGTERM.
set -eu

modprobe bochs
wait-for /dev/fb0 5
game=$(GAME_COMMAND=calibrate start-game --display fb --source sim)
sleep 1
[ "$(./kdmode /dev/tty1)" = graphics ] || { echo "tty1 is not in graphics mode while calibrate runs"; exit 1; }
screendump --settled-below 34 calibrate-bochs
stop-game "$game"
[ "$(./kdmode /dev/tty1)" = text ] || { echo "tty1 was left in graphics mode"; exit 1; }
