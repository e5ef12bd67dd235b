# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# A crash (SIGSEGV) while drawing on the framebuffer: the crash handler gives
# the console back in text mode before the process dies of the signal.
set -eu

game=$(start-game --display fb --source sim --level /scenario/still.txt)
sleep 1
[ "$(./kdmode /dev/tty1)" = graphics ] || { echo "tty1 is not in graphics mode while tiltmaze plays"; exit 1; }
kill -SEGV "$game"
for _ in $(seq 1 100); do [ -e /tmp/play.status ] && break; sleep 0.1; done
echo "tiltmaze exit status $(cat /tmp/play.status) (139: killed by SIGSEGV, as it should be)"
[ "$(cat /tmp/play.status)" = 139 ]
[ "$(./kdmode /dev/tty1)" = text ] || { echo "the crash left tty1 in graphics mode"; exit 1; }
