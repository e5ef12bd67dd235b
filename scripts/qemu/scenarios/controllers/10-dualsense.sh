# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# A DualSense made over /dev/uhid, driven by the kernel's real hid-playstation:
# `tiltmaze devices` must find its motion node, with the driver's own units,
# clock and our DualSense axis convention, paired with its gamepad node;
# `monitor --json` must turn the raw reports sent into board-frame m/s² and
# rad/s timed by MSC_TIMESTAMP (host-check compares the numbers: the lines
# marked "dualsense-monitor-json:" below); its buttons must drive the pause menu
# (Options opens it, D-pad down four times and Cross choose Quit).
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
modprobe uhid
modprobe evdev
modprobe hid-playstation
wait-for /dev/fb0
wait-for /dev/uhid

mkfifo /tmp/dualsense.in
./dualsense </tmp/dualsense.in >/tmp/dualsense.out 2>/tmp/dualsense.err &
exec 3>/tmp/dualsense.in
wait_for "hid-playstation to probe the uhid DualSense" 'grep -q ready /tmp/dualsense.out' || { echo "hid-playstation did not probe the uhid DualSense:"; cat /tmp/dualsense.err; dmesg | tail -20; exit 1; }

name="Sony Interactive Entertainment DualSense Wireless Controller"
motion=$(input-node "$name Motion Sensors") || exit 1
pad=$(input-node "$name") || exit 1
echo "motion node $motion, gamepad node $pad"

# What the driver registered, kept as fixtures the host-side mocks are checked against.
./evinfo "$motion" | sed 's/^/fixture dualsense-motion.evinfo: /'
./evinfo "$pad" | sed 's/^/fixture dualsense-gamepad.evinfo: /'

# devices: the driver's absinfo and properties, read by our discovery.
$BINARY devices | tee /tmp/devices.out
says /tmp/devices.out "$name Motion Sensors  (evdev, use --source evdev:$motion)" \
    "accelerometer: ABS_X/Y/Z, 8192 per g" "gyroscope: ABS_RX/RY/RZ, 1024 per °/s" \
    "timestamps: MSC_TIMESTAMP (the controller's clock)" \
    "axes: DualSense convention, mount matrix 1, 0, 0; 0, 0, -1; 0, 1, 0" "gamepad: $name ($pad)"

# monitor: three reports sent once it has the node open. Raw counts in the
# controller's frame (+X right grip, +Y out of the face, +Z towards the
# player): lying flat; far edge 30° down, turning; right edge 25° down. Each
# value moves by more than 32 counts from the one before, or the input core's
# fuzz filter (fuzz 16) would hold or average it.
monitor-samples "$motion" 3 dualsense-monitor-json \
    "motion 0 8192 0 0 0 0" "motion 0 7094 4096 16 -32 48" "motion -3462 7424 0 0 0 0"

# The gamepad drives the pause menu of a game steered by the same controller.
game=$(start-game --display fb --source "evdev:$motion" --level /scenario/pause-level.txt --player ball)
echo "motion 0 8192 0 0 0 0" >&3
screendump --settled-below 34 dualsense-playing
# A settled screen only says nothing changes: each button is pressed once
# the game has drawn what the one before did (what it drew on /dev/fb0
# below its status bar, whose clock runs, changed).
drawn=$(fb_sum 34)
echo "press options" >&3
wait_for "the pause menu on the screen after Options" '[ "$(fb_sum 34)" != "$drawn" ]'
screendump --settled-below 34 dualsense-menu
for _ in 1 2 3 4; do   # Restart, Calibrate here, Settings, Quit
    # shellcheck disable=SC2034 # read by the condition wait_for evaluates
    drawn=$(fb_sum 34)
    echo "press down" >&3
    wait_for "the menu's choice to move down" '[ "$(fb_sum 34)" != "$drawn" ]'
done
echo "press cross" >&3
wait_for "Cross on Quit to end the game" 'game_ended' || { kill "$game"; exit 1; }
echo "tiltmaze exit status $(cat /tmp/play.status) after Options, down x4, Cross"
cat /tmp/play.err
[ "$(cat /tmp/play.status)" = 0 ] && [ ! -s /tmp/play.err ]

echo quit >&3
exec 3>&-
