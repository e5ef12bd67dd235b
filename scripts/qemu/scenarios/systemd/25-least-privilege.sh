# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# After the reboot, with the kiosk playing: what the rules and the unit
# grant the game's input, tried on the running system rather than read in
# their files.
# - the kiosk's game, as its own user in its own groups, may read the
#   sensor's node (group tiltmaze's ACL entry, which udev's helper added) and
#   not a keyboard's (group input, which the game is not in);
# - the kiosk's unit is ordered after the hrtimer trigger's.
# The hrtimer trigger itself cannot be made here: Debian 12's amd64 kernel,
# which this tier boots, has no IIO trigger drivers.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service

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
echo "$unit starts after tiltmaze-hrtimer.service (and so stops before it)"
