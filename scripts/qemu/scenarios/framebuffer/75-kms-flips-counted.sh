# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Frames counted by the kernel's flip events: the game on KMS with --stats
# for a few seconds (the clock changes the status bar ten times a second, so
# frames keep coming), then SIGTERM. At the end `play --stats` prints one line
# for the KMS output: frames presented (copied and handed to the kernel as a
# page flip) and flips completed (the events the kernel sent back at the
# vertical blank). Every presented frame must have completed its flip (the
# game waits for the last one before it lets the display go), and there must
# be some.
set -eu

[ -e /dev/dri/card0 ] || { modprobe bochs; wait-for /dev/dri/card0 5; }
game=$(start-game --display kms --source sim --level /scenario/still.txt --stats)
wait-kms-flip
sleep 5
kill -TERM "$game"
for _ in $(seq 1 200); do [ -e /tmp/play.status ] && break; sleep 0.1; done
[ -e /tmp/play.status ] || { echo "tiltmaze did not end within 20 s of SIGTERM"; exit 1; }
echo "tiltmaze exit status $(cat /tmp/play.status)"
cat /tmp/play.err
[ "$(cat /tmp/play.status)" = 0 ] || exit 1
line=$(grep ' frames presented, ' /tmp/play.err) || { echo "no KMS summary on standard error"; exit 1; }
presented=$(echo "$line" | sed -n 's/.*: \([0-9]*\) frames presented, .*/\1/p')
flips=$(echo "$line" | sed -n 's/.* \([0-9]*\) flips completed, .*/\1/p')
[ -n "$presented" ] && [ -n "$flips" ] || { echo "cannot read the counts in: $line"; exit 1; }
[ "$presented" -ge 3 ] || { echo "only $presented frames presented in 5 s"; exit 1; }
[ "$flips" = "$presented" ] || { echo "$presented frames presented but $flips flips completed"; exit 1; }
# Nothing else on standard error.
[ "$(grep -vc ' frames presented, ' /tmp/play.err)" = 0 ] || { echo "unexpected errors above"; exit 1; }
[ "$(./kdmode /dev/tty1)" = text ] || { echo "tty1 was left in graphics mode"; exit 1; }
echo "flips counted: $presented frames presented, $flips flips completed"
