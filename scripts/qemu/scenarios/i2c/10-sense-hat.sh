# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The Sense HAT's IMU, an LSM9DS1, read through i2c-dev, as on Raspberry Pi
# OS, whose kernel has no driver for it. The chip is a register model on
# i2c-stub (chip_addr=0x1c,0x6a): its registers hold what was last written,
# so the scenario sets WHO_AM_I, keeps the status register saying "both sets
# new", and tilts the board by writing the output registers; the
# magnetometer at 0x1c likewise holds a field and says "new". tiltmaze
# devices and doctor find it; monitor prints the counts written, converted
# to the board's frame (host-check), and leaves the control registers as it
# found them; play rolls the ball right when the right edge goes down; and
# when the chip stops reporting new samples mid-game the game ends saying so.
# Last, the CPU time per sample of the i2c-dev source beside the polled IIO
# source on a real inv-mpu6050 driver bound to the same stub, in one run
# (reported by host-check, not judged: this virtual machine is no Pi).
# (The stub cannot be unloaded while i2c-dev holds its bus open: a chip
# whose data-ready bits stay clear is what a reset or unpowered one does.)
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
modprobe i2c-dev
# A stub left by an earlier scenario holds other chips: take it away first.
old=$(i2c-stub-bus)
if [ -n "$old" ]; then
    for client in /sys/bus/i2c/devices/"$old"-*; do
        [ -e "$client" ] && echo "0x${client##*-00}" > "/sys/bus/i2c/devices/i2c-$old/delete_device"
    done
    rmmod i2c-stub
fi
modprobe i2c-stub chip_addr=0x1c,0x6a,0x68
# Leave the boot as found, whatever happens: with the model left behind,
# every later `play --source auto` would find a Sense HAT that has stopped.
game=""
leave() {
    [ -z "$game" ] || kill "$game" 2>/dev/null || true
    wait_for "i2c-stub to unload" 'rmmod i2c-stub 2>/dev/null' || echo "could not unload i2c-stub"
}
trap leave EXIT
wait-for /dev/dri/card0
bus=$(i2c-stub-bus)
node=/dev/i2c-$bus
wait-for "$node"
echo "i2c-stub is $node"

# int16 little-endian into two consecutive registers (busybox's i2cset
# reads a register number as hex, whatever its prefix: pass it as 0xNN).
hex() { printf '0x%02x' "$1"; }
word() { v=$(( ($3 + 65536) % 65536 )); i2cset -y "$bus" "$1" "$(hex $(($2)))" $((v & 255)); i2cset -y "$bus" "$1" "$(hex $(($2 + 1)))" $((v >> 8)); }
# Three axes from a first register: gyroscope 0x18, accelerometer 0x28.
axes() { word 0x6a "$1" "$2"; word 0x6a $(($1 + 2)) "$3"; word 0x6a $(($1 + 4)) "$4"; }
i2cset -y "$bus" 0x6a 0x0f 0x68     # WHO_AM_I of the accelerometer and gyroscope
i2cset -y "$bus" 0x1c 0x0f 0x3d     # WHO_AM_I_M of the magnetometer
# Lying flat: +1 g on the chip's z (4098 counts at ±8 g, 0.244 mg each); the
# gyroscope turning at 1000 counts (17.5 °/s) about x, -400 about y, 2000 about z.
axes 0x28 0 0 4098
axes 0x18 1000 -400 2000
i2cset -y "$bus" 0x6a 0x17 0x03     # STATUS_REG: XLDA and GDA
# The magnetometer's field: 2000, -1000, -3000 counts (28, -14, -42 µT at
# ±4 gauss). The chip steps through its output registers when the register
# number's top bit asks it to, so tiltmaze reads from 0xa8; the stub has no
# such rule and simply holds 256 registers: the field goes where the read lands.
word 0x1c 0xa8 2000; word 0x1c 0xaa -1000; word 0x1c 0xac -3000
i2cset -y "$bus" 0x1c 0x27 0x08     # STATUS_REG_M: ZYXDA
[ "$(i2cget -y "$bus" 0x6a 0x1b) $(i2cget -y "$bus" 0x6a 0x2d)" = "0xfe 0x10" ] || { echo "the registers were not written as meant"; exit 1; }

$BINARY devices | tee /tmp/devices.out
says /tmp/devices.out \
    "lsm9ds1  (Sense HAT, i2c-dev, use --source i2c:$node)" \
    "bus: $node (SMBus stub driver), addresses 0x6a + 0x1c" \
    "rates: 14.9 59.5 119 238 476 952 Hz; ranges ±8 g, ±500 °/s" \
    "mount matrix: -1, 0, 0; 0, -1, 0; 0, 0, 1 (the Sense HAT's mounting)" \
    "--source auto uses: lsm9ds1 (Sense HAT) on $node at 0x6a"
$BINARY doctor > /tmp/doctor.out || true
cat /tmp/doctor.out
says /tmp/doctor.out "OK   I2C: lsm9ds1 (Sense HAT) on $node at 0x6a, addresses 0x6a + 0x1c: readable" \
    "OK   ready: tiltmaze play will use lsm9ds1 (Sense HAT) on $node at 0x6a"

# What the control registers held before: monitor must put them back.
controls() { for r in 0x10 0x1e 0x1f 0x20 0x22; do i2cget -y "$bus" 0x6a $r; done; for r in 0x20 0x21 0x22 0x23 0x24; do i2cget -y "$bus" 0x1c $r; done; }
i2cset -y "$bus" 0x1c 0x22 0x03     # CTRL_REG3_M as after reset: powered down
before=$(controls | tr '\n' ' ')
$BINARY monitor --source i2c --json --samples 5 --sensor-rate 200 > /tmp/monitor.out
sed 's/^/sensehat-monitor-json: /' /tmp/monitor.out
after=$(controls | tr '\n' ' ')
[ "$before" = "$after" ] || { echo "monitor left the control registers as $after (were $before)"; exit 1; }
echo "control registers after monitor: $after (as before)"

# While it plays the chip runs at 238 Hz, ±8 g, ±500 °/s: ODR_G 100, FS_G 01.
axes 0x18 0 0 0
game=$(start-game --display kms --source "i2c:$bus" --sensor-rate 200 --level /scenario/sensehat-corridor.txt --player ball)
[ "$(i2cget -y "$bus" 0x6a 0x10)" = 0x88 ] || { echo "CTRL_REG1_G is $(i2cget -y "$bus" 0x6a 0x10) while playing, not 0x88"; exit 1; }
[ "$(i2cget -y "$bus" 0x6a 0x20)" = 0x98 ] || { echo "CTRL_REG6_XL is $(i2cget -y "$bus" 0x6a 0x20) while playing, not 0x98"; exit 1; }
# The magnetometer: 80 Hz in ultra-high performance (CTRL_REG1_M 0x7c), converting continuously.
[ "$(i2cget -y "$bus" 0x1c 0x20) $(i2cget -y "$bus" 0x1c 0x22)" = "0x7c 0x00" ] || { echo "the magnetometer is not running while playing"; exit 1; }
wait-kms-flip
screendump --settled-below 34 sensehat-level
# Right edge down by 30°: on the board -0.5 g on x and 0.866 g on z; the
# HAT's chip sits turned half round, so +0.5 g on its x.
axes 0x28 2049 0 3549
# However long the game takes to follow the tilt and roll the ball: the host
# takes screendumps until the ball is far right.
screendump --ball-right-of sensehat-level sensehat-tilted ||
    { echo "the ball did not roll right"; [ ! -e /tmp/play.status ] || { echo "tiltmaze ended while tilted:"; cat /tmp/play.err; }; exit 1; }
[ ! -e /tmp/play.status ] || { echo "tiltmaze ended while tilted:"; cat /tmp/play.err; exit 1; }

# The chip stops reporting new samples: the game ends, saying so.
i2cset -y "$bus" 0x6a 0x17 0x00
wait_for "tiltmaze to end once the chip stopped" 'game_ended' || { echo "tiltmaze still runs after the chip stopped"; kill "$game"; exit 1; }
echo "tiltmaze exit status $(cat /tmp/play.status) after the chip stopped:"
cat /tmp/play.err
[ "$(cat /tmp/play.status)" = 74 ] || exit 1
grep -q "no data from lsm9ds1 (Sense HAT) on $node at 0x6a" /tmp/play.err || { echo "no message naming the chip"; exit 1; }
[ "$(i2cget -y "$bus" 0x6a 0x10)" = 0x00 ] || { echo "the game left the chip running"; exit 1; }
[ "$(i2cget -y "$bus" 0x1c 0x22)" = 0x03 ] || { echo "the game left the magnetometer running"; exit 1; }

# CPU per sample, the same stub serving both: the LSM9DS1 model read over
# i2c-dev (saying "new" at every look), and an MPU-6050 through its kernel
# driver, polled (no interrupt line), each for 1500 samples at 200 Hz asked.
# monitor's last line gives the process's CPU time per sample since the
# first one, start-up left out.
i2cset -y "$bus" 0x6a 0x17 0x03
i2cset -y "$bus" 0x68 0x75 0x68     # MPU-6050 WHO_AM_I
modprobe inv-mpu6050-i2c
echo "mpu6050 0x68" > "/sys/bus/i2c/devices/i2c-$bus/new_device"
wait-for /sys/bus/iio/devices/iio:device0
$BINARY monitor --source i2c --sensor-rate 200 --samples 1500 | tail -1 | sed 's/^/cpu i2c-dev: /'
$BINARY monitor --source iio:mpu6050 --sensor-rate 200 --samples 1500 | tail -1 | sed 's/^/cpu iio polled: /'
echo 0x68 > "/sys/bus/i2c/devices/i2c-$bus/delete_device"
