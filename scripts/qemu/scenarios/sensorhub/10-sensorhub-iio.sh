# A HID sensor hub made over /dev/uhid (./sensorhub), driven by the kernel's
# real hid-sensor-hub, hid-sensor-accel-3d and hid-sensor-gyro-3d: prints the
# whole sysfs layout of the two IIO devices and their triggers, captures
# through the kernel buffer with plain sysfs and /dev/iio:deviceN and compares
# the scans with the reports sent, then runs tiltmaze's devices, doctor and
# monitor --source iio against them and unplugs the hub under monitor.
#
# Lines "layout ...", "scan ..." and "tiltmaze ..." are the findings.
set -u
. ./hub-lib

load_modules || exit 1
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
ls -l /dev/iio:* | sed 's/^/layout dev: /'

# Buffered capture: both sensors at once, each with its own trigger. The
# helper sends the known sequence (accel 100k, -100k, 1000+k mg; gyro 10k,
# -10k, 500+k x 0.01 deg/s) for k = 1..8, each sensor every report interval.
echo "--- buffered capture"
enable "$ACCEL" || failed=1
enable "$GYRO" || failed=1
echo state >&3
sleep 0.3
grep '^state' /tmp/hub.out | tail -2
an=$(node "$ACCEL") gn=$(node "$GYRO")
timeout 10 dd if="$an" of=/tmp/accel.bin bs=24 count=8 2>/tmp/accel.dd &
ar=$!
timeout 10 dd if="$gn" of=/tmp/gyro.bin bs=24 count=8 2>/tmp/gyro.dd &
gr=$!
sleep 0.3
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
echo "burst 0" >&3
for _ in $(seq 1 70); do echo "accel 1 2 3"; done >&3
sleep 1
echo "DEBUG sysfs-only: 70 reports with nobody reading: data_available $(cat "$ACCEL/buffer/data_available")"
disable "$ACCEL"
disable "$GYRO"
# Runtime PM of the platform device switches the sensor off (D4, no events)
# once its autosuspend delay has passed after the last user.
platform=$(dirname "$(readlink -f "$ACCEL")")
echo "accel platform device: runtime_status $(cat "$platform/power/runtime_status")," \
     "autosuspend_delay_ms $(cat "$platform/power/autosuspend_delay_ms")"
t=0
while [ "$(cat "$platform/power/runtime_status")" != suspended ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
echo "accel platform device: runtime_status $(cat "$platform/power/runtime_status") about $t x 0.1 s after buffer/enable=0"
echo state >&3
sleep 0.3
grep '^state' /tmp/hub.out | tail -2

echo "--- tiltmaze devices"
$BINARY devices >/tmp/devices.out 2>&1; echo "tiltmaze devices: exit $?"
sed 's/^/tiltmaze devices: /' /tmp/devices.out
echo "--- tiltmaze doctor"
$BINARY doctor >/tmp/doctor.out 2>&1; echo "tiltmaze doctor: exit $?"
sed 's/^/tiltmaze doctor: /' /tmp/doctor.out

# monitor: the helper keeps sending the known sequence for 20 s at 100 Hz, or
# faster if monitor asks (dropped while the sensors are off), so whatever
# monitor switches on has data.
echo "--- tiltmaze monitor --source iio --json"
echo "burst 2000" >&3
timeout 5 $BINARY monitor --source iio --json >/tmp/monitor.out 2>/tmp/monitor.err
echo "tiltmaze monitor: exit $?, $(wc -l </tmp/monitor.out) lines"
head -5 /tmp/monitor.out | sed 's/^/tiltmaze monitor first: /'
tail -2 /tmp/monitor.out | sed 's/^/tiltmaze monitor last: /'
sed 's/^/tiltmaze monitor stderr: /' /tmp/monitor.err
check_monitor /tmp/monitor.out "tiltmaze monitor check" || failed=1
echo "helper: $(grep -c '^sent accel' /tmp/hub.out) accel and $(grep -c '^sent gyro' /tmp/hub.out) gyro reports sent so far," \
     "$(grep -c '^dropped' /tmp/hub.out) dropped (sensor off)"

# Unplug under monitor.
echo "--- unplug under tiltmaze monitor"
$BINARY monitor --source iio --json >/tmp/monitor2.out 2>/tmp/monitor2.err &
mon=$!
sleep 3
echo "monitor before unplug: $(wc -l </tmp/monitor2.out) lines"
# What tiltmaze (through libiio) configured while it captures.
for f in buffer/enable buffer/length buffer/watermark buffer/data_available trigger/current_trigger \
         current_timestamp_clock in_accel_sampling_frequency scan_elements/in_accel_x_en \
         scan_elements/in_accel_y_en scan_elements/in_accel_z_en scan_elements/in_timestamp_en; do
    echo "tiltmaze configured: $f = $(cat "$ACCEL/$f" 2>&1)"
done
# Latency probe: with the burst stopped, does one report reach monitor at
# once, or does it wait in the kernel buffer until watermark scans are there?
echo "burst 0" >&3
sleep 1
l0=$(wc -l </tmp/monitor2.out) a0=$(cat "$ACCEL/buffer/data_available")
echo "accel 100 -100 1001" >&3
sleep 1.5
l1=$(wc -l </tmp/monitor2.out) a1=$(cat "$ACCEL/buffer/data_available")
for _ in $(seq 1 70); do echo "accel 100 -100 1001"; done >&3
sleep 1.5
l2=$(wc -l </tmp/monitor2.out) a2=$(cat "$ACCEL/buffer/data_available")
echo "tiltmaze latency probe: burst stopped: data_available $a0;" \
     "1 report sent: $((l1 - l0)) new monitor lines after 1.5 s, data_available $a1;" \
     "70 more sent: $((l2 - l1)) new lines after 1.5 s, data_available $a2"
echo "DEBUG: monitor bytes $(wc -c </tmp/monitor2.out), wchan $(cat /proc/$mon/wchan), state $(grep State /proc/$mon/status)"; echo state >&3; sleep 0.3; tail -2 /tmp/hub.out | sed 's/^/DEBUG hub.out: /'
for _ in $(seq 1 10); do echo "accel 100 -100 1001"; done >&3; sleep 1; echo "DEBUG after 10 more: data_available $(cat "$ACCEL/buffer/data_available"), monitor bytes $(wc -c </tmp/monitor2.out)"
stop_hub
for _ in $(seq 1 50); do kill -0 $mon 2>/dev/null || break; sleep 0.1; done
if kill -0 $mon 2>/dev/null; then
    echo "tiltmaze monitor after unplug: still running 5 s later; $(wc -l </tmp/monitor2.out) lines"
    kill $mon; wait $mon; echo "tiltmaze monitor after unplug: exit $? after SIGTERM"
else
    wait $mon; echo "tiltmaze monitor after unplug: exit $?, $(wc -l </tmp/monitor2.out) lines"
fi
tail -2 /tmp/monitor2.out | sed 's/^/tiltmaze monitor after unplug last: /'
sed 's/^/tiltmaze monitor after unplug stderr: /' /tmp/monitor2.err
echo "after unplug: $(ls /sys/bus/iio/devices/ | tr '\n' ' ') / $(ls /dev/ | grep iio | tr '\n' ' ')"

echo "--- helper output (events)"
grep -v '^dropped\|^sent' /tmp/hub.out
echo "--- helper trace (first 80 lines)"
head -80 /tmp/hub.err
echo "--- dmesg (hid, iio, sensor)"
dmesg | grep -iE 'hid|iio|sensor|uhid' | tail -40
exit $failed
