# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# A left Joy-Con on Bluetooth made over /dev/uhid, driven by the kernel's real
# hid-nintendo: the helper plays the controller's side of the driver's probe
# (SPI flash calibration reads, report mode, vibration, IMU, device info,
# player lights), the driver registers its IMU and gamepad nodes, and input
# reports 0x30 with known raw IMU samples come back as evdev events.
# `tiltmaze devices` must describe the IMU node with the driver's units and
# our Joy-Con (L) axis convention; `monitor --json` must turn the three
# samples of one report into board-frame m/s² and rad/s 5 ms apart. The
# events the kernel delivered are kept too (lines "imu-event:"), so
# host-check can compare them with what the driver's arithmetic and the
# input core's filtering predict from the raw counts sent.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe uhid
modprobe evdev
modprobe hid-nintendo
wait-for /dev/uhid

mkfifo /tmp/joycon.in
./joycon </tmp/joycon.in >/tmp/joycon.out 2>/tmp/joycon.err &
exec 3>/tmp/joycon.in
wait_for "hid-nintendo to finish probing the uhid Joy-Con" 'grep -q ready /tmp/joycon.out' || true
# The handshake as the helper saw it, and what the driver said about it.
cat /tmp/joycon.err
dmesg | grep -E 'nintendo|input: Nintendo' || true
grep -q ready /tmp/joycon.out || { echo "hid-nintendo did not finish probing the uhid Joy-Con"; exit 1; }

# hid-nintendo's names: "Nintendo Switch Left Joy-Con" and "… IMU" up to
# Linux 6.3 (the x86 guest's 6.1); since 6.4 the HID device's own name,
# "Joy-Con (L)", and "Joy-Con (L) (IMU)" (the arm64 guest's 6.12, Raspberry
# Pi OS's). tiltmaze must know the controller by either.
wait_for "the Joy-Con's IMU input device" \
    "grep -q -e '^N: Name=\"Nintendo Switch Left Joy-Con IMU\"\$' -e '^N: Name=\"Joy-Con (L) (IMU)\"\$' /proc/bus/input/devices" || true
if grep -q '^N: Name="Nintendo Switch Left Joy-Con IMU"$' /proc/bus/input/devices; then
    name="Nintendo Switch Left Joy-Con" imu_name="Nintendo Switch Left Joy-Con IMU"
else
    name="Joy-Con (L)" imu_name="Joy-Con (L) (IMU)"
fi
pad=$(input-node "$name") || exit 1
imu=$(input-node "$imu_name") || exit 1
echo "IMU node $imu, gamepad node $pad"

# What the driver registered (host-check compares the IMU node with the
# driver's constants), in the fixture format of Tests/Fixtures/kernel/.
./evinfo "$imu" | sed 's/^/fixture joycon-left-imu.evinfo: /'
./evinfo "$pad" | sed 's/^/fixture joycon-left-gamepad.evinfo: /'

# devices: the driver's absinfo and properties, read by our discovery.
$BINARY devices | tee /tmp/devices.out
says /tmp/devices.out "$imu_name  (evdev, use --source evdev:$imu)" \
    "accelerometer: ABS_X/Y/Z, 4096 per g" "gyroscope: ABS_RX/RY/RZ, 14247 per °/s" \
    "timestamps: MSC_TIMESTAMP (counted by hid-nintendo, not the controller's clock)" \
    "axes: Joy-Con (L) convention, mount matrix -1, 0, 0; 0, -1, 0; 0, 0, 1" "gamepad: $name ($pad)"

# Every event the IMU node delivers from here on, raw.
cat "$imu" >/tmp/imu-events.bin &
capture=$!

# monitor: one report 0x30, three samples, once it has the node open. Raw
# counts in the driver's frame (+X towards the triggers, +Y to the left, +Z
# out of the face): lying flat face up; far edge 30° down, turning; right
# edge 25° down. Each value moves by 20 counts or more from the one before,
# or the input core's fuzz filter (fuzz 10) would hold or average it.
monitor-samples "$imu" 3 joycon-monitor-json "motion 0 0 4096 0 0 0  0 2048 3547 16 -32 48  1731 0 3712 0 0 0"

# A controller lying still: a few counts of noise. The input core swallows
# accelerometer changes under 5 counts (fuzz 10) and averages those under
# 20, so the second sample's frame carries nothing but MSC_TIMESTAMP; the
# gyroscope's fuzz is in the driver's x1000 units, so one raw count passes.
# monitor must give all three samples, the silent one too (the values it
# had, 5 ms on): host-check, lines "joycon-monitor-still-json:".
monitor-samples "$imu" 3 joycon-monitor-still-json "motion 0 0 4096 0 0 0  2 -3 4099 0 0 0  0 0 4104 1 0 -1"
# The capture has the frames of both reports: six SYN_REPORTs, one a sample.
frames() {
    hexdump -v -e '1/4 "%d " 1/4 "%d " 1/4 "%d " 1/4 "%d " 1/2 "%u " 1/2 "%u " 1/4 "%d\n"' /tmp/imu-events.bin |
        awk '$5 == 0 && $6 == 0 { n++ } END { print n + 0 }'
}
wait_for "the capture to hold the six frames sent" '[ "$(frames)" -ge 6 ]'
kill $capture
hexdump -v -e '1/4 "%d " 1/4 "%d " 1/4 "%d " 1/4 "%d " 1/2 "%u " 1/2 "%u " 1/4 "%d\n"' /tmp/imu-events.bin |
    awk '{ printf "imu-event: %d.%06d %d %d %d\n", $1, $3, $5, $6, $7 }'

# Unplug: the driver's nodes go away with the device.
echo quit >&3
exec 3>&-
wait_for "$imu to go after the unplug" '[ ! -e "/sys/class/input/${imu##*/}" ]' || { echo "$imu still there after the unplug"; exit 1; }
echo "unplugged: $imu and $pad are gone"
