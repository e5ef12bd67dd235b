# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# tiltmaze play on the HID sensor hub's real buffered IIO devices, drawing on
# bochs's framebuffer: it plays on the hub's two halves, and unplugging the
# hub mid-game ends it with status 74 (a sensor failed in use), one message naming the device that
# went (not libiio's chatter), and the console back in text mode.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -u
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
. ./hub-lib

modprobe bochs
wait-for /dev/fb0
load_modules || exit 1
# shellcheck disable=SC2119 # the helper's options, start_hub's arguments: none here
start_hub || exit 1
# Reports until the unplug: a burst counts down from now, sensor on or off,
# and the emulated debug build can take many seconds to start (a shorter one
# ran dry before the unplug in a CI run, and the game rightly said "no data").
echo "burst 1000000" >&3

game=$(start-game --display fb --source iio:hid-sensor-hub --level /scenario/hub-level.txt) || exit 1
# Playing: the console in graphics mode and both halves' buffers on.
wait_for "the game to capture from both halves of the hub (or to end)" \
    'game_ended || { tty1_mode_is graphics && [ "$(cat "$ACCEL/buffer/enable")$(cat "$GYRO/buffer/enable")" = 11 ]; }'
[ ! -e /tmp/play.status ] || { echo "tiltmaze ended while the hub was there:"; cat /tmp/play.err; exit 1; }
tty1_mode_is graphics || { echo "tty1 is not in graphics mode while tiltmaze plays"; exit 1; }
echo "playing on the hub: $(cat "$ACCEL/buffer/enable") $(cat "$GYRO/buffer/enable") (buffers on), trigger $(cat "$ACCEL/trigger/current_trigger")"
[ "$(cat "$ACCEL/buffer/enable")$(cat "$GYRO/buffer/enable")" = 11 ] || { echo "the game does not capture from both halves"; exit 1; }

stop_hub
wait_for "tiltmaze to end after the unplug" 'game_ended' || { echo "tiltmaze still runs after the hub was unplugged"; kill "$game"; exit 1; }
echo "tiltmaze exit status $(cat /tmp/play.status) after the unplug:"
cat /tmp/play.err
[ "$(cat /tmp/play.status)" = 74 ] || exit 1
grep -q "(accel_3d) is gone: unplugged\|(gyro_3d) is gone: unplugged" /tmp/play.err || { echo "no message naming the device that went"; exit 1; }
# libiio's own lines (its high-speed fallback, a failure per file of the
# vanished device) are held back while the screen is up and not passed on.
! grep -q "High-speed mode\|Error during" /tmp/play.err || { echo "libiio's chatter reached the player"; exit 1; }
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
