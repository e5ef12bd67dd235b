# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# Frames counted by the kernel's flip events: the game on KMS with --stats
# until the kernel has shown a few of its frames (the clock changes the status
# bar ten times a second, so frames keep coming, however slowly the emulated
# guest draws them), then SIGTERM. At the end `play --stats` prints one line
# for the KMS output: frames presented (copied and handed to the kernel as a
# page flip) and flips completed (the events the kernel sent back at the
# vertical blank). Every presented frame must have completed its flip (the
# game waits for the last one before it lets the display go), and there must
# be at least the flips seen here. Counts are compared with each other, never
# with the time they took.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

[ -e /dev/dri/card0 ] || { modprobe bochs; wait-for /dev/dri/card0; }
game=$(start-game --display kms --source sim --level /scenario/still.txt --stats)
# Each wait-kms-flip returns once the screen shows another buffer of the
# game's than when it began: three in a row are three frames shown at least.
seen=0
while [ "$seen" -lt 3 ]; do
    wait-kms-flip
    seen=$((seen + 1))
done
echo "the kernel showed at least $seen frames of the game's"
kill -TERM "$game"
wait_for "tiltmaze to end after SIGTERM" 'game_ended'
echo "tiltmaze exit status $(cat /tmp/play.status)"
cat /tmp/play.err
[ "$(cat /tmp/play.status)" = 0 ] || exit 1
line=$(grep ' frames presented, ' /tmp/play.err) || { echo "no KMS summary on standard error"; exit 1; }
presented=$(echo "$line" | sed -n 's/.*: \([0-9]*\) frames presented, .*/\1/p')
flips=$(echo "$line" | sed -n 's/.* \([0-9]*\) flips completed, .*/\1/p')
if [ -z "$presented" ] || [ -z "$flips" ]; then echo "cannot read the counts in: $line"; exit 1; fi
[ "$presented" -ge "$seen" ] || { echo "$presented frames presented, but the kernel showed $seen"; exit 1; }
[ "$flips" = "$presented" ] || { echo "$presented frames presented but $flips flips completed"; exit 1; }
# Nothing else on standard error.
[ "$(grep -vc ' frames presented, ' /tmp/play.err)" = 0 ] || { echo "unexpected errors above"; exit 1; }
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
echo "flips counted: $presented frames presented, $flips flips completed"
