# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# A HID sensor hub made over /dev/uhid (./sensorhub), driven by the kernel's
# real hid-sensor-hub, hid-sensor-accel-3d and hid-sensor-gyro-3d: prints the
# whole sysfs layout of the two IIO devices and their triggers, captures
# through the kernel buffer with plain sysfs and /dev/iio:deviceN and compares
# the scans with the reports sent, then runs tiltmaze's devices, doctor and
# monitor --source iio:accel_3d against them: devices must pair the two
# halves as one IMU with their own triggers, doctor must find it ready, the
# values monitor prints must be the reports sent (gyro included); while it
# captures the kernel must wake it for every scan (watermark 1, put back
# after), so a sensor reporting at 10 Hz is not taken for a dead one; and
# unplugging the hub under it must end it with a clear message.
#
# Lines "layout ...", "scan ..." and "tiltmaze ..." are the findings.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -u
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
. ./hub-lib

load_modules || exit 1
# shellcheck disable=SC2119 # the helper's options, start_hub's arguments: none here
start_hub || exit 1
failed=0

echo "--- where the devices hang"
for h in /sys/bus/hid/devices/*; do
    echo "hid $(basename "$h"): driver $(basename "$(readlink "$h/driver")" 2>/dev/null), $(grep HID_NAME "$h/uevent")"
done
for p in /sys/bus/platform/devices/HID-SENSOR-*; do
    echo "platform $(basename "$p"): driver $(basename "$(readlink "$p/driver")" 2>/dev/null)"
done

echo "--- layout"
dump "$ACCEL" "layout accel"
dump "$GYRO" "layout gyro"
for t in /sys/bus/iio/devices/trigger*; do
    dump "$t" "layout $(cat "$t/name")"
done
# shellcheck disable=SC2012 # ls -l for what it prints: the nodes' modes and numbers
ls -l /dev/iio:* | sed 's/^/layout dev: /'
# The same as a fixture in umockdev's format (host-check: Tests/Fixtures/kernel/):
# the accelerometer with its parents, the gyroscope up to their common HID
# device, then the triggers (their parents are already there).
hid=$(readlink -f "$ACCEL/../..")
{
    record-sysfs "$ACCEL"
    record-sysfs "$GYRO" --below "$hid"
    for t in /sys/bus/iio/devices/trigger*; do record-sysfs "$t" --alone; done
} | sed "s/^/fixture iio-hid-sensor-hub.umockdev: /"

# Buffered capture: both sensors at once, each with its own trigger. The
# helper sends the known sequence (accel 100k, -100k, 1000+k mg; gyro 10k,
# -10k, 500+k x 0.01 deg/s) for k = 1..8, each sensor every report interval.
echo "--- buffered capture"
enable_buffer "$ACCEL" || failed=1
enable_buffer "$GYRO" || failed=1
state_report || failed=1
an=$(node "$ACCEL") gn=$(node "$GYRO")
# (timeout: a bound only a hang reaches.)
timeout 120 dd if="$an" of=/tmp/accel.bin bs=24 count=8 2>/tmp/accel.dd &
ar=$!
timeout 120 dd if="$gn" of=/tmp/gyro.bin bs=24 count=8 2>/tmp/gyro.dd &
gr=$!
wait_for "both readers to have their node open" 'reading_from "$an" && reading_from "$gn"' || failed=1
echo "burst 8" >&3
wait $ar; echo "accel reader ($an, dd bs=24 count=8): exit $?, $(tr '\n' ' ' </tmp/accel.dd)"
wait $gr; echo "gyro reader ($gn, dd bs=24 count=8): exit $?, $(tr '\n' ' ' </tmp/gyro.dd)"
for s in accel gyro; do
    echo "$s: $(wc -c </tmp/$s.bin) bytes"
    hexdump -C /tmp/$s.bin | sed "s/^/scan $s hex: /"
done

# Scan layout (24 bytes): x, y, z as le:s32 in 32-bit storage, 4 bytes of
# padding, timestamp le:s64 (ns, CLOCK_REALTIME unless current_timestamp_clock says otherwise).
check() {   # NAME FILE STEPX STEPY BASEZ
    k=0 previous=0
    hexdump -v -e '4/4 "%d " 2/4 " %u" "\n"' "$2" | while read -r x y z pad lo hi; do
        k=$((k + 1))
        ts=$((hi * 4294967296 + lo))
        ex=$(($3 * k)) ey=$(($4 * k)) ez=$(($5 + k))
        verdict=ok
        [ "$x $y $z" = "$ex $ey $ez" ] || verdict="DIFFERS (sent $ex $ey $ez)"
        echo "scan $1 $k: $x $y $z pad $pad timestamp $ts (+$(( (ts - previous) / 1000 )) us): $verdict"
        previous=$ts
    done
}
check accel /tmp/accel.bin 100 -100 1000 | tee /tmp/accel.check
check gyro /tmp/gyro.bin 10 -10 500 | tee /tmp/gyro.check
[ "$(grep -c ': ok$' /tmp/accel.check)" = 8 ] || failed=1
[ "$(grep -c ': ok$' /tmp/gyro.check)" = 8 ] || failed=1
dump "$ACCEL/buffer" "after-capture accel buffer"
disable_buffer "$ACCEL"
disable_buffer "$GYRO"
# Runtime PM of the platform device switches the sensor off (D4, no events)
# once its autosuspend delay has passed after the last user.
platform=$(dirname "$(readlink -f "$ACCEL")")
echo "accel platform device: runtime_status $(cat "$platform/power/runtime_status")," \
     "autosuspend_delay_ms $(cat "$platform/power/autosuspend_delay_ms")"
t=$(uptime_s)
wait_for "the accel platform device to suspend" '[ "$(cat "$platform/power/runtime_status")" = suspended ]' || true
echo "accel platform device: runtime_status $(cat "$platform/power/runtime_status") about $(($(uptime_s) - t)) s after buffer/enable=0"
state_report || failed=1

echo "--- tiltmaze devices"
$BINARY devices >/tmp/devices.out 2>&1; echo "tiltmaze devices: exit $?"
sed 's/^/tiltmaze devices: /' /tmp/devices.out
for line in "hid-sensor-hub  (IIO, use --source iio:hid-sensor-hub)" "trigger: accel_3d-dev0 (its data-ready trigger)" \
            "trigger: gyro_3d-dev1 (its data-ready trigger)" "scales: accel 0.00980665 m/s² per count" \
            "--source auto uses: hid-sensor-hub on"; do
    grep -qF -- "$line" /tmp/devices.out || { echo "CHECK FAILED: devices does not say: $line"; failed=1; }
done
echo "--- tiltmaze doctor"
$BINARY doctor >/tmp/doctor.out 2>&1; status=$?; echo "tiltmaze doctor: exit $status"
sed 's/^/tiltmaze doctor: /' /tmp/doctor.out
if [ $status != 0 ] || ! grep -qF "ready: tiltmaze play will use hid-sensor-hub on" /tmp/doctor.out; then
    echo "CHECK FAILED: doctor should find the hub ready"; failed=1
fi

# monitor: the helper keeps sending the known sequence at 100 Hz, or faster
# if monitor asks (dropped while the sensors are off), until told to stop, so
# whatever monitor switches on has data however long it takes to start. It
# ends after 100 samples (timeout: a bound only a hang reaches). The source
# is named (iio:accel_3d, which is also what --source iio picks here, as
# devices says) so that IIO devices other scenarios of the same boot leave
# behind cannot be chosen instead.
echo "--- tiltmaze monitor --source iio:accel_3d --json"
echo "burst 1000000" >&3
timeout 120 "$BINARY" monitor --source iio:accel_3d --json --samples 100 >/tmp/monitor.out 2>/tmp/monitor.err
echo "tiltmaze monitor: exit $?, $(wc -l </tmp/monitor.out) lines"
head -5 /tmp/monitor.out | sed 's/^/tiltmaze monitor first: /'
tail -2 /tmp/monitor.out | sed 's/^/tiltmaze monitor last: /'
sed 's/^/tiltmaze monitor stderr: /' /tmp/monitor.err
check_monitor /tmp/monitor.out "tiltmaze monitor check" || failed=1
# The two halves are read together, each sample from its own device (accel or gyro, the other null).
grep -q '"gyro":\[' /tmp/monitor.out || { echo "CHECK FAILED: the gyroscope half was not read with the accelerometer"; failed=1; }
echo "helper: $(grep -c '^sent accel' /tmp/hub.out) accel and $(grep -c '^sent gyro' /tmp/hub.out) gyro reports sent so far," \
     "$(grep -c '^dropped' /tmp/hub.out) dropped (sensor off)"

# tiltmaze (libiio) while it captures: what it configured, and how scans
# reach it. libiio 0.24's local backend sets buffer/watermark to the
# buffer's sample count, and the kernel reports the node readable only once
# watermark scans are queued.
echo "--- tiltmaze monitor while capturing"
echo "burst 1000000" >&3
$BINARY monitor --source iio:accel_3d --json >/tmp/monitor2.out 2>/tmp/monitor2.err &
mon=$!
# Capturing: the buffer it switched on, and samples coming out.
wait_for "monitor to capture from $an (or to end)" \
    '! kill -0 $mon 2>/dev/null || { [ "$(cat "$ACCEL/buffer/enable")" = 1 ] && reading_from "$an" && [ -s /tmp/monitor2.out ]; }' ||
    failed=1
for f in buffer/enable buffer/length buffer/watermark trigger/current_trigger current_timestamp_clock \
         in_accel_sampling_frequency scan_elements/in_accel_x_en scan_elements/in_accel_y_en \
         scan_elements/in_accel_z_en scan_elements/in_timestamp_en; do
    echo "tiltmaze configured: $f = $(cat "$ACCEL/$f" 2>&1)"
done
queued=""
# (A sampling of the queue for the record, not a wait: 0.05 s apart.)
for _ in $(seq 1 12); do queued="$queued $(cat "$ACCEL/buffer/data_available")"; sleep 0.05; done
echo "tiltmaze capturing: buffer/data_available every 50 ms:$queued"
[ "$(cat "$ACCEL/buffer/watermark")" = 1 ] || { echo "CHECK FAILED: the reader is woken only every $(cat "$ACCEL/buffer/watermark") scans"; failed=1; }
# The same sensor reporting at about 10 Hz (a slow rate, or a hub that only
# reports changes larger than its sensitivity): the sleep paces the reports
# sent, it waits for nothing.
echo "burst 0" >&3
for _ in $(seq 1 40); do echo "accel 100 -100 1001" >&3; sleep 0.1; done
if kill -0 $mon 2>/dev/null; then
    kill $mon; wait $mon; echo "tiltmaze monitor at 10 Hz: still running after 4 s, exit $? after SIGTERM"
else
    wait $mon; echo "tiltmaze monitor at 10 Hz: exited by itself, status $?"
    echo "CHECK FAILED: a sensor reporting at 10 Hz was taken for a dead one"; failed=1
fi
[ "$(cat "$ACCEL/buffer/watermark")" = 1 ] || { echo "CHECK FAILED: the watermark was not put back"; failed=1; }
echo "tiltmaze monitor at 10 Hz: buffer/enable $(cat "$ACCEL/buffer/enable"), data_available $(cat "$ACCEL/buffer/data_available")"
sed 's/^/tiltmaze monitor at 10 Hz stderr: /' /tmp/monitor2.err

# Unplug under monitor: only once it reads (the buffer it switched on, its
# node open, samples out); unplugged sooner, it would not find the hub at all.
echo "--- unplug under tiltmaze monitor"
echo "burst 1000000" >&3
$BINARY monitor --source iio:accel_3d --json >/tmp/monitor3.out 2>/tmp/monitor3.err &
mon=$!
wait_for "monitor to capture from $an before the unplug (or to end)" \
    '! kill -0 $mon 2>/dev/null || { [ "$(cat "$ACCEL/buffer/enable")" = 1 ] && reading_from "$an" && [ -s /tmp/monitor3.out ]; }' ||
    failed=1
kill -0 $mon 2>/dev/null || { echo "CHECK FAILED: monitor ended before the unplug:"; cat /tmp/monitor3.err; failed=1; }
stop_hub
wait_for "monitor to end after the unplug" '! kill -0 $mon 2>/dev/null'
if kill -0 $mon 2>/dev/null; then
    echo "tiltmaze monitor after unplug: still running; $(wc -l </tmp/monitor3.out) lines"
    kill $mon; wait $mon; echo "tiltmaze monitor after unplug: exit $? after SIGTERM"
else
    wait $mon; status=$?; echo "tiltmaze monitor after unplug: exit $status, $(wc -l </tmp/monitor3.out) lines"
    # The hub takes both halves with it: either may be the one noticed first.
    if [ $status != 74 ] || ! grep -qE "\((accel|gyro)_3d\) is gone: unplugged" /tmp/monitor3.err; then
        echo "CHECK FAILED: the unplug was not reported"; failed=1
    fi
fi
tail -1 /tmp/monitor3.out | sed 's/^/tiltmaze monitor after unplug last: /'
sed 's/^/tiltmaze monitor after unplug stderr: /' /tmp/monitor3.err
echo "after unplug: $(names /sys/bus/iio/devices/*) / $(names /dev/*iio*)"

echo "--- helper output (events)"
grep -v '^dropped\|^sent' /tmp/hub.out
echo "--- helper trace (first 80 lines)"
head -80 /tmp/hub.err
echo "--- dmesg (hid, iio, sensor)"
dmesg | grep -iE 'hid|iio|sensor|uhid' | tail -40
exit $failed
