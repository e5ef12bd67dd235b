# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# Console switching as well-behaved fbdev programs do it (VT_PROCESS): on a
# switch away (chvt 2) the game lets go and stops drawing, so what another
# program puts on the screen stays there; coming back (chvt 1) it draws
# everything again. host-check: switched-away.png is all black (our own dd,
# not overdrawn by the running clock), switched-back.png equals the opening
# frame below the status bar.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
wait-for /dev/fb0
game=$(start-game --display fb --source sim --level /scenario/still.txt)
wait_for "tty1 in graphics mode while tiltmaze plays" 'tty1_mode_is graphics'
screendump --settled-below 34 switched-before
# What the game drew below its status bar (whose clock runs): it must draw
# the same again when the console comes back.
# shellcheck disable=SC2034 # read by the condition wait_for evaluates
drawn=$(fb_sum 34)
# tty2's own cursor off, and its blinking: fbcon draws it (an 8x2 grey bar at
# the top left) whenever it blinks, and a screendump that caught it was taken
# for the game drawing while away (an emulated arm64 run did).
blink=$(cat /sys/class/graphics/fbcon/cursor_blink 2>/dev/null || echo 1)
restore_cursor() {
    printf '\033[?25h' >/dev/tty2
    echo "$blink" >/sys/class/graphics/fbcon/cursor_blink 2>/dev/null || true
}
trap restore_cursor EXIT
printf '\033[?25l' >/dev/tty2
echo 0 >/sys/class/graphics/fbcon/cursor_blink 2>/dev/null || true
# chvt returns once the game has let the console go (VT_PROCESS: it
# acknowledges the release only after it stopped drawing).
chvt 2
wait_for "tty2 to be the active console" '[ "$(cat /sys/class/tty/tty0/active)" = tty2 ]'
dd if=/dev/zero of=/dev/fb0 bs=4096000 count=1 2>/dev/null
# Until the screen stops changing: a game that drew while away (its clock
# ten times a second) would never let it settle, nor leave it black.
screendump --settled-below 0 switched-away
chvt 1
wait_for "the game to draw its frame again on its return" '[ "$(fb_sum 34)" = "$drawn" ]'
screendump --like expected-play-bochs 34 switched-back
stop-game "$game"
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
