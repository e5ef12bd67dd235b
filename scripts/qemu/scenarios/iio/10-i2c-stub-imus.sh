# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# Real IIO IMU drivers (inv-mpu6050, bmi160, st_lsm6dsx as LSM6DS3 and
# LSM6DSO) bound to i2c-stub, a simulated I2C bus whose registers are preset
# with each chip's WHO_AM_I and the settings the drivers read at probe. No
# chip has an interrupt line, and this kernel has no software trigger: so
# inv_mpu6050 and st_lsm6dsx make no buffer, and bmi160 a buffer with no
# trigger. `tiltmaze devices` must describe each (the split LSM6 halves as
# one IMU, the drivers' own rate lists and mount matrices) and `doctor` must
# say why none can be captured, and that those without a buffer are polled
# instead; monitor polls the MPU-6050 (a four-wire one: no interrupt line)
# through the real driver, and host-check checks its values and reports the
# rate polling reached. Each driver's sysfs tree is printed in umockdev's
# format, as fixtures (host-check: Tests/Fixtures/kernel/), and so is an
# ADS1015 ADC's beside them (ti-ads1015 at 0x48): an IIO device with a buffer
# and rates that is no motion sensor, which the udev rules must leave alone.
set -eu
modprobe i2c-dev
modprobe i2c-stub chip_addr=0x48,0x68,0x69,0x6a,0x6b
# Leave the boot as found, passed or failed: the chips and the stub go (with
# them left, every later `--source auto` would find an MPU-6050).
leave() {
    [ -n "${bus:-}" ] || return 0
    for address in 0x48 0x68 0x69 0x6a 0x6b; do
        [ -e "/sys/bus/i2c/devices/$bus-00${address#0x}" ] && echo "$address" > "/sys/bus/i2c/devices/i2c-$bus/delete_device"
    done
    rmmod i2c-stub 2>/dev/null || echo "could not unload i2c-stub"
}
trap leave EXIT
bus=$(i2c-stub-bus)
echo "i2c-stub is bus $bus"
i2cset -y "$bus" 0x68 0x75 0x68                                     # MPU-6050 WHO_AM_I
i2cset -y "$bus" 0x69 0x00 0xd1                                     # BMI160 CHIP_ID
i2cset -y "$bus" 0x69 0x40 0x28; i2cset -y "$bus" 0x69 0x41 0x03    # accel: 100 Hz, ±2 g
i2cset -y "$bus" 0x69 0x42 0x28; i2cset -y "$bus" 0x69 0x43 0x00    # gyro: 100 Hz, ±2000 °/s
i2cset -y "$bus" 0x6a 0x0f 0x69                                     # LSM6DS3 WHO_AM_I
i2cset -y "$bus" 0x6b 0x0f 0x6c                                     # LSM6DSO WHO_AM_I
modprobe inv-mpu6050-i2c
modprobe bmi160_i2c
modprobe st_lsm6dsx_i2c
for chip in "mpu6050 0x68" "bmi160 0x69" "lsm6ds3 0x6a" "lsm6dso 0x6b"; do
    echo "$chip" > "/sys/bus/i2c/devices/i2c-$bus/new_device"
done
wait-for /sys/bus/iio/devices/iio:device5
# The ADC last, so that the IMUs keep the device numbers their fixtures have.
modprobe ti-ads1015
echo "ads1015 0x48" > "/sys/bus/i2c/devices/i2c-$bus/new_device"
wait-for /sys/bus/iio/devices/iio:device6

# The fixtures: one per chip, its devices (accelerometer half first) and their parents once.
for chip in mpu6050 bmi160 lsm6ds3 lsm6dso; do
    first=yes
    for half in "$chip" "${chip}_accel" "${chip}_gyro"; do
        for d in /sys/bus/iio/devices/iio:device*; do
            [ "$(cat "$d/name")" = "$half" ] || continue
            if [ $first = yes ]; then record-sysfs "$d"; first=no; else record-sysfs "$d" --alone; fi
        done
    done | sed "s/^/fixture iio-$chip.umockdev: /"
done
for d in /sys/bus/iio/devices/iio:device*; do
    [ "$(cat "$d/name")" = ads1015 ] && record-sysfs "$d" | sed "s/^/fixture iio-ads1015.umockdev: /"
done

$BINARY devices | tee /tmp/devices.out
says /tmp/devices.out \
    "mpu6050  (IIO, use --source iio:mpu6050)" \
    "channels: accel_x accel_y accel_z anglvel_x anglvel_y anglvel_z (single raw reads only)" \
    "rates: 10 20 50 100 200 500 Hz (now 50)" \
    "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (in_accel_mount_matrix)" \
    "bmi160  (IIO, use --source iio:bmi160)" \
    "channels: anglvel_x anglvel_y anglvel_z accel_x accel_y accel_z timestamp" \
    "rates: accel 0.78125 1.5625 3.125 6.25 12.5 25 50 100 200 400 800 1600 Hz (now 100)" \
    "rates: anglvel 25 50 100 200 400 800 1600 3200 Hz (now 100)" \
    "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (in_mount_matrix)" \
    "trigger: none to be had (no data-ready trigger, no hrtimer; \`tiltmaze doctor\` says why)" \
    "lsm6ds3  (IIO, use --source iio:lsm6ds3)" \
    "rates: 12.5 26 52 104 208 416 Hz (now 12.5)" \
    "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (mount_matrix)" \
    "lsm6dso  (IIO, use --source iio:lsm6dso)" \
    "rates: 12.5 26 52 104 208 416 833 Hz (now 12.5)" \
    "--source auto uses: mpu6050 on iio:device0 (polled: no buffer)"
[ "$(grep -c "capture: polled, no buffer" /tmp/devices.out)" = 5 ] || { echo "five devices (mpu6050, two halves of each LSM6) should be without a buffer, polled"; exit 1; }

$BINARY doctor > /tmp/doctor.out || true
cat /tmp/doctor.out
says /tmp/doctor.out "OK   IIO: lsm6ds3 on iio:device3 + iio:device2 (accel, anglvel)" \
    "WARN capture: iio:device0 (mpu6050) has no buffer, so it is polled: each axis read in turn at the rate asked" \
    "FAIL trigger: iio:device1 (bmi160) has no data-ready trigger (a driver that has one makes it only when the chip's interrupt pin is wired" \
    "OK   ready: tiltmaze play will use mpu6050 on iio:device0 (polled: no buffer)"

# A four-wire MPU-6050 tilted: its accelerometer registers (big-endian,
# ACCEL_XOUT_H at 0x3b; ±2 g, 16384 counts per g) say 0.5 g on x and 0.866 g
# on z, its gyroscope (GYRO_XOUT_H at 0x43; ±2000 °/s) 1000 counts about z.
# monitor polls it through the driver's raw attributes (host-check reads the
# lines and the rate they came at).
# (-f: the driver has bound the address, as i2c-dev is told.)
i2cset -f -y "$bus" 0x68 0x3b 0x20; i2cset -f -y "$bus" 0x68 0x3c 0x00
i2cset -f -y "$bus" 0x68 0x3f 0x37; i2cset -f -y "$bus" 0x68 0x40 0x6e
i2cset -f -y "$bus" 0x68 0x47 0x03; i2cset -f -y "$bus" 0x68 0x48 0xe8
$BINARY monitor --source iio:mpu6050 --sensor-rate 200 --json --samples 60 > /tmp/monitor.out
sed 's/^/mpu6050-polled-json: /' /tmp/monitor.out
