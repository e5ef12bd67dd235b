# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# A motion sensor made through /dev/uinput (INPUT_PROP_ACCELEROMETER, 8192
# units per g, MSC_TIMESTAMP) tilts the board through the real evdev path:
# tiltmaze finds it with --source evdev, draws on bochs through KMS (page
# flips; the framebuffer scenarios cover fbdev), and the ball, still while
# the sensor lies level, rolls right once it tilts right.
# The tilt starts with a burst of frames written at once, so the game's reader
# falls behind and the kernel sends SYN_DROPPED: the game must go on.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
modprobe uinput
modprobe evdev
wait-for /dev/dri/card0
wait-for /dev/uinput

./imu 3000 > /tmp/imu.node &
imu=$!
wait_for "the uinput motion sensor's node" '[ -s /tmp/imu.node ]'
node=$(cat /tmp/imu.node)
echo "motion sensor at $node"

game=$(start-game --display kms --source evdev --level /scenario/corridor.txt --player ball)
# The mode is set on a black buffer at once; the first frame comes with the
# first flip, and the debug build's whole-frame copies under TCG take
# seconds: the dump waits for the flip, then for the picture to settle.
wait-kms-flip
screendump --settled-below 34 evdev-level
# Tilt now (the burst first). The attitude filter follows a held tilt within
# a few seconds of the game's time, which a loaded machine stretches (once,
# 4 s of emulated time were not enough): the host takes screendumps until the
# ball has rolled right, however long that takes.
kill -USR1 "$imu"
screendump --ball-right-of evdev-level evdev-tilted ||
    { echo "the ball did not roll right"; [ ! -e /tmp/play.status ] || { echo "tiltmaze ended after the burst:"; cat /tmp/play.err; }; exit 1; }
[ ! -e /tmp/play.status ] || { echo "tiltmaze ended after the burst:"; cat /tmp/play.err; exit 1; }
kill "$imu" 2>/dev/null || true
stop-game "$game"
