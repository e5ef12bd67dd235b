# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# A motion sensor made through /dev/uinput (INPUT_PROP_ACCELEROMETER, 8192
# units per g, MSC_TIMESTAMP) tilts the board through the real evdev path:
# tiltmaze finds it with --source evdev, draws on bochs through KMS (page
# flips; the framebuffer scenarios cover fbdev), and the ball, still while
# the sensor lies level, rolls right once it tilts right.
# The tilt starts with a burst of frames written at once, so the game's reader
# falls behind and the kernel sends SYN_DROPPED: the game must go on.
set -eu

modprobe bochs
modprobe uinput
modprobe evdev
wait-for /dev/dri/card0 5
wait-for /dev/uinput 5

./imu 3000 > /tmp/imu.node &
imu=$!
for _ in $(seq 1 50); do [ -s /tmp/imu.node ] && break; sleep 0.1; done
node=$(cat /tmp/imu.node)
echo "motion sensor at $node"

game=$(start-game --display kms --source evdev --level /scenario/corridor.txt --player ball)
# The mode is set on a black buffer at once; the first frame comes with the
# first flip, and the debug build's whole-frame copies under TCG take
# seconds: the dump waits for the flip, then for the picture to settle.
wait-kms-flip
screendump --settled-below 34 evdev-level
# Tilt now (the burst first), and give the ball time to roll.
kill -USR1 "$imu"
# The attitude filter follows a held tilt within a few seconds; a loaded CI
# machine once saw the ball still in place after 4 s of emulated time.
sleep 8
[ ! -e /tmp/play.status ] || { echo "tiltmaze ended after the burst:"; cat /tmp/play.err; exit 1; }
screendump evdev-tilted
kill "$imu" 2>/dev/null || true
stop-game "$game"
