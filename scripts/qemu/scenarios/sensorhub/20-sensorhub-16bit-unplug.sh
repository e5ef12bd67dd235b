# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The same hub with 16-bit axes and Report Latency declared (as many real
# hubs have): the scan types become le:s16/32>>0 (the drivers keep 32-bit
# storage and copy 4 bytes from the report, so the upper half of each stored
# axis is whatever follows it in the report) and the buffer directory gains
# hwfifo_timeout and hwfifo_enabled. tiltmaze monitor must still give the
# values sent (it has to use only the low 16 bits). Then a reader blocked on
# /dev/iio:deviceN when the hub is unplugged (the helper destroys the device
# after the 5th report): what does it get?
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -u
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
. ./hub-lib

# This time the drivers come after the device: nothing binds it until
# hid-sensor-hub is loaded, which then takes it by its group (the
# MODALIAS's g0003, HID_GROUP_SENSOR_HUB) with no help.
modprobe -r hid-sensor-gyro-3d hid-sensor-accel-3d hid-sensor-trigger hid-sensor-iio-common hid-sensor-hub
echo "modules after modprobe -r: $(cut -d' ' -f1 /proc/modules | grep -i 'hid_sensor' | tr '\n' ' ')"
LOAD_AFTER=1 start_hub --accel-bits 16 --gyro-bits 16 --latency || exit 1
failed=0
platform=$(dirname "$(readlink -f "$ACCEL")")

echo "--- layout (16-bit, report latency)"
for f in scan_elements/in_accel_x_type scan_elements/in_timestamp_type in_accel_scale in_accel_hysteresis \
         in_accel_sampling_frequency; do
    echo "layout16 accel $f = $(cat "$ACCEL/$f" 2>&1)"
done
for f in scan_elements/in_anglvel_x_type in_anglvel_scale in_anglvel_hysteresis; do
    echo "layout16 gyro $f = $(cat "$GYRO/$f" 2>&1)"
done
dump "$ACCEL/buffer" "layout16 accel buffer"
dump "$ACCEL/buffer0" "layout16 accel buffer0"
echo "layout16 accel platform device runtime PM: $(cat "$platform/power/runtime_status" 2>&1)"

echo "--- tiltmaze monitor --source iio:accel_3d --json on 16-bit axes"
echo "burst 1000000" >&3
timeout 120 "$BINARY" monitor --source iio:accel_3d --json --samples 100 >/tmp/monitor16.out 2>/tmp/monitor16.err
echo "tiltmaze monitor16: exit $?, $(wc -l </tmp/monitor16.out) lines"
head -3 /tmp/monitor16.out | sed 's/^/tiltmaze monitor16 first: /'
sed 's/^/tiltmaze monitor16 stderr: /' /tmp/monitor16.err
check_monitor /tmp/monitor16.out "tiltmaze monitor16 check" || failed=1
echo "burst 0" >&3

# SIGUSR1 starts the same 8-report burst as the command.
before=$(grep -c '^burst .* done' /tmp/hub.out)
kill -USR1 "$HUB"
wait_for "the helper to finish the accel and gyro bursts SIGUSR1 started" \
    '[ "$(grep -c "^burst .* done" /tmp/hub.out)" -ge $((before + 2)) ]' || failed=1
echo "SIGUSR1: $(( $(grep -c '^burst .* done' /tmp/hub.out) - before )) bursts done (accel and gyro)"

echo "--- buffered capture, unplugged after the 5th report"
enable_buffer "$ACCEL" || failed=1
echo "accel platform device runtime PM with the buffer on: $(cat "$platform/power/runtime_status" 2>&1)"
echo "hwfifo_enabled $(cat "$ACCEL/buffer/hwfifo_enabled" 2>&1), hwfifo_timeout $(cat "$ACCEL/buffer/hwfifo_timeout" 2>&1)"
an=$(node "$ACCEL")
# (timeout: a bound only a hang reaches.)
timeout 120 dd if="$an" of=/tmp/unplug.bin bs=24 count=100 2>/tmp/unplug.dd &
reader=$!
wait_for "the reader to have $an open" 'reading_from "$an"' || failed=1
# Values that fill all 16 bits, with and without the sign. Each report is
# sent once the reader has the one before (a scan still queued when the
# device goes is lost: the kernel ends the read with ENODEV first).
sent="1 -2 3|-32768 32767 -1|4660 -4661 22136|0 0 1000|-1000 2000 -3000"
echo "unplug-after 5" >&3
k=0
for v in $(echo "$sent" | tr ' |' '_ '); do
    echo "accel $(echo "$v" | tr '_' ' ')" >&3
    k=$((k + 1))
    [ "$k" = 5 ] || wait_for "scan $k at the reader" '[ "$(wc -c </tmp/unplug.bin)" -ge $((k * 24)) ]' || failed=1
done
wait $reader
echo "reader blocked on $an at unplug (dd bs=24 count=100): exit $?, $(tr '\n' ' ' </tmp/unplug.dd)"
# The kernel ends a blocked read with ENODEV once the device is unregistered.
grep -q 'No such device' /tmp/unplug.dd || { echo "the reader did not get ENODEV"; failed=1; }
wait "$HUB"; echo "helper exit $?"
exec 3>&-
echo "$(wc -c </tmp/unplug.bin) bytes read before the unplug"
hexdump -C /tmp/unplug.bin | sed 's/^/scan16 hex: /'
k=0
hexdump -v -e '4/4 "%d " 2/4 " %u" "\n"' /tmp/unplug.bin | while read -r x y z pad lo hi; do
    k=$((k + 1))
    s16() { echo $(( (($1 & 0xFFFF) ^ 0x8000) - 0x8000 )); }
    echo "scan16 $k: stored $x $y $z -> 16 bits $(s16 "$x") $(s16 "$y") $(s16 "$z"), pad $pad, timestamp $((hi * 4294967296 + lo))"
done | tee /tmp/scan16
got=$(sed 's/.*-> 16 bits \(.*\), pad.*/\1/' /tmp/scan16 | tr '\n' '|' | sed 's/|$//')
[ "$got" = "$sent" ] || { echo "scans read ($got) are not the reports sent ($sent)"; failed=1; }
grep '^sent\|^unplugged' /tmp/hub.out | tail -6 | sed 's/^/helper: /'

echo "--- after the unplug"
echo "iio devices: $(names /sys/bus/iio/devices/*)"
echo "nodes: $(names /dev/*iio*)"
dd if="$an" bs=24 count=1 of=/dev/null 2>&1 | sed 's/^/a new reader: /'
echo "--- kernel messages about it (none when all went well)"
dmesg | grep -E 'WARNING|BUG|Oops|hid|HID|iio|IIO|sensor|uhid' | grep -v 'raw HID events driver'
exit $failed
