# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# After the reboot, with the kiosk playing: what the rules and the units
# grant, tried on the running system rather than read in their files.
# - tiltmaze-hrtimer.service made the trigger "tiltmaze" in its sandbox (root
#   with no capability, configfs's hrtimer directory its only writable place;
#   systemd-analyze security rates the running unit 2.0 or less), and udev
#   gave it the rules' rate, 200 Hz;
# - a member of group tiltmaze may not make a trigger in configfs, remove the
#   boot-time one, or set its rate (100 kHz, or anything at all);
# - the kiosk's game, as its own user in its own groups, may read the
#   sensor's node (group tiltmaze's ACL entry) and not a keyboard's (group
#   input, which the game is not in);
# - the kiosk's unit is ordered after the trigger's.
set -eu
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service
hrtimer=/sys/kernel/config/iio/triggers/hrtimer

echo "--- the boot-time trigger"
wait_for "tiltmaze-hrtimer.service" '[ "$(systemctl is-active tiltmaze-hrtimer.service)" = active ]' ||
    { systemctl status --no-pager tiltmaze-hrtimer.service; journalctl -b --no-pager -u tiltmaze-hrtimer.service; exit 1; }
[ -d $hrtimer/tiltmaze ] || { echo "no $hrtimer/tiltmaze"; exit 1; }
trigger=
for t in /sys/bus/iio/devices/trigger*; do
    [ "$(cat "$t/name")" = tiltmaze ] && trigger=$t
done
[ -n "$trigger" ] || { echo "no IIO trigger named tiltmaze:"; grep . /sys/bus/iio/devices/*/name; exit 1; }
rate_is() { awk -v want="$1" '{ exit !($1 == want) }' "$trigger/sampling_frequency"; }
wait_for "udev to give the trigger its rate" 'rate_is 200' || { cat "$trigger/sampling_frequency"; exit 1; }
echo "$trigger: $(cat "$trigger/name") at $(cat "$trigger/sampling_frequency") Hz"
ls -ld $hrtimer "$trigger/sampling_frequency"
exposure_at_most tiltmaze-hrtimer.service 2.0

echo "--- a member of group tiltmaze"
tiltmaze_gid=$(getent group tiltmaze | cut -d: -f3)
# refused WHAT COMMAND...: COMMAND, run as nobody in group tiltmaze, fails for want of permission.
refused() {
    _what=$1
    shift
    if setpriv --reuid=65534 --regid=65534 --groups="$tiltmaze_gid" -- "$@" 2>/tmp/refused.err; then
        echo "a member could $_what"; exit 1
    fi
    grep -qE "Permission denied|Operation not permitted" /tmp/refused.err ||
        { echo "$_what: refused for another reason:"; cat /tmp/refused.err; exit 1; }
    echo "a member may not $_what: $(cat /tmp/refused.err)"
}
refused "make a trigger" mkdir $hrtimer/member
refused "remove the boot-time trigger" rmdir $hrtimer/tiltmaze
refused "set the trigger's rate to 100 kHz" sh -c "echo 100000 >$trigger/sampling_frequency"
refused "set the trigger's rate to 100 Hz" sh -c "echo 100 >$trigger/sampling_frequency"
[ -d $hrtimer/tiltmaze ] && [ ! -e $hrtimer/member ] && rate_is 200 || { echo "the trigger changed"; exit 1; }

echo "--- input nodes as the kiosk's game"
game=$(systemctl show -p MainPID --value $unit)
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$game/status")
gid=$(awk '/^Gid:/ { print $2 }' "/proc/$game/status")
groups=$(awk '/^Groups:/ { $1 = ""; print }' "/proc/$game/status" | tr -s ' ' ',' | sed 's/^,//; s/,$//')
echo "the game: uid $uid gid $gid groups $groups"
input_gid=$(getent group input | cut -d: -f3)
case ",$groups," in *",$input_gid,"*) echo "the game is in group input"; exit 1 ;; esac
node=$(cat /run/tiltmaze-qemu-imu.node)
keyboard=
for event in /dev/input/event*; do
    udevadm info --query=property --name="$event" | grep -qx 'ID_INPUT_KEYBOARD=1' && { keyboard=$event; break; }
done
[ -n "$keyboard" ] || { echo "the guest has no keyboard node:"; grep -H . /sys/class/input/event*/device/name; exit 1; }
echo "keyboard: $keyboard ($(cat /sys/class/input/"${keyboard#/dev/input/}"/device/name))"
as_game() { setpriv --reuid="$uid" --regid="$gid" --groups="$groups" -- "$@"; }
as_game dd if="$node" of=/dev/null bs=1 count=0 status=none || { echo "the game's user cannot open $node"; exit 1; }
echo "$node (the sensor) opens as the game's user"
if as_game dd if="$keyboard" of=/dev/null bs=1 count=0 status=none 2>/tmp/dd.err; then
    echo "the game's user may read the keyboard $keyboard"; exit 1
fi
grep -q "Permission denied" /tmp/dd.err || { echo "$keyboard: refused for another reason:"; cat /tmp/dd.err; exit 1; }
echo "$keyboard (a keyboard) refused to the game's user: $(cat /tmp/dd.err)"
getfacl --omit-header "$node" | tee /tmp/acl
grep -qx 'group:tiltmaze:r--' /tmp/acl || { echo "$node has no read entry for group tiltmaze"; exit 1; }
getfacl --omit-header "$keyboard" | grep -q tiltmaze && { echo "$keyboard has an entry for group tiltmaze"; exit 1; }

echo "--- ordering"
systemctl show -p After --value $unit | tr ' ' '\n' | grep -qx tiltmaze-hrtimer.service ||
    { echo "$unit is not ordered after tiltmaze-hrtimer.service"; exit 1; }
echo "$unit starts after tiltmaze-hrtimer.service and stops before it"
