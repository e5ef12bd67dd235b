# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# A crash (SIGSEGV) while drawing on the framebuffer: the crash handler gives
# the console back in text mode before the process dies of the signal.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
wait-for /dev/fb0
game=$(start-game --display fb --source sim --level /scenario/still.txt)
wait_for "tty1 in graphics mode while tiltmaze plays" 'tty1_mode_is graphics'
kill -SEGV "$game"
wait_for "tiltmaze to end after SIGSEGV" 'game_ended'
echo "tiltmaze exit status $(cat /tmp/play.status) (139: killed by SIGSEGV, as it should be)"
[ "$(cat /tmp/play.status)" = 139 ]
tty1_mode_is text || { echo "the crash left tty1 in graphics mode"; exit 1; }
