# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# After the reboot: systemd started the game on tty1 as the package's unit
# says, in its sandbox, and it plays.
# - tty1 shows the campaign's first level (host-check: as `tiltmaze snapshot`
#   draws it) through KMS, and no login prompt runs there;
# - the game reads the uinput sensor, and tilting it moves the pacman down
#   its corridor (screendumps until it has);
# - the sandbox is in force on the game's process, not only written in the
#   unit: no capabilities, no new privileges, a seccomp filter, a user made
#   for it, a network namespace of its own; `systemctl show` has the unit's
#   settings, and `systemd-analyze security` rates the running unit at 2.0 or
#   less;
# - the device policy holds: a process put into the game's cgroup (root
#   itself) is refused a block device and /dev/uinput, which the unit does
#   not allow, and may open what it does allow (the sensor's node), while the
#   same opens outside the cgroup succeed;
# - udev applied the package's rules: the sensor's node and the framebuffer
#   are tagged for the seat's user (uaccess).
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service

wait_for "the kiosk's unit to run" '[ "$(systemctl is-active $unit)" = active ]' ||
    { systemctl status --no-pager $unit; journalctl -b --no-pager -u $unit; exit 1; }
game=$(systemctl show -p MainPID --value $unit)
echo "the game: pid $game, $(tr '\0' ' ' <"/proc/$game/cmdline")"
[ "$(systemctl is-active getty@tty1.service)" != active ] || { echo "getty runs on tty1 beside the game"; exit 1; }

wait_for "the sensor's node" '[ -s /run/tiltmaze-qemu-imu.node ]'
node=$(cat /run/tiltmaze-qemu-imu.node)
wait_for "the game to read $node" 'has_open "$game" "$node"' ||
    { echo "the game does not read the sensor:"; journalctl -b --no-pager -u $unit; exit 1; }
# A flip shows a whole frame: once the game has flipped, the screen is one
# of its pictures (its ghost patrols, so it would never settle).
wait-kms-flip
screendump --at-least expected-kiosk-level 34 97 kiosk-level

echo "--- the sandbox on pid $game"
grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "/proc/$game/status" | tee /tmp/status
[ "$(awk '/^Uid:/ { print $2 }' /tmp/status)" -ne 0 ] || { echo "the game runs as root"; exit 1; }
for cap in CapPrm CapEff CapBnd CapAmb; do
    grep -q "^$cap:[[:space:]]*0000000000000000$" /tmp/status || { echo "the game has capabilities ($cap)"; exit 1; }
done
grep -q '^NoNewPrivs:[[:space:]]*1$' /tmp/status || { echo "the game may gain privileges"; exit 1; }
grep -q '^Seccomp:[[:space:]]*2$' /tmp/status || { echo "the game has no system-call filter"; exit 1; }
[ "$(readlink "/proc/$game/ns/net")" != "$(readlink /proc/1/ns/net)" ] || { echo "the game shares the host's network"; exit 1; }
systemctl show -p DynamicUser -p DevicePolicy -p PrivateNetwork -p ProtectSystem -p ProtectProc -p UMask \
    -p NoNewPrivileges -p CapabilityBoundingSet -p RestrictNamespaces -p MemoryDenyWriteExecute $unit | tee /tmp/show
says /tmp/show DynamicUser=yes DevicePolicy=closed PrivateNetwork=yes ProtectSystem=strict ProtectProc=invisible \
    UMask=0077 NoNewPrivileges=yes CapabilityBoundingSet= RestrictNamespaces=yes MemoryDenyWriteExecute=yes
exposure_at_most $unit 2.0

echo "--- the device policy"
cgroup=/sys/fs/cgroup$(sed -n 's/^0:://p' "/proc/$game/cgroup")
[ -f "$cgroup/cgroup.procs" ] || { echo "no cgroup $cgroup"; exit 1; }
# in_game_cgroup DEVICE: a shell that joins the game's cgroup, then opens DEVICE for reading.
in_game_cgroup() { sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if="$2" of=/dev/null bs=512 count=0 status=none' sh "$cgroup" "$1"; }
for refused in /dev/vda /dev/uinput; do
    dd if=$refused of=/dev/null bs=512 count=0 status=none || { echo "root cannot open $refused outside the cgroup either"; exit 1; }
    if in_game_cgroup $refused 2>/tmp/dd.err; then
        echo "$refused, not in DeviceAllow, opened from the game's cgroup"; exit 1
    fi
    grep -q "Operation not permitted" /tmp/dd.err || { echo "$refused: refused for another reason:"; cat /tmp/dd.err; exit 1; }
    echo "$refused refused in the game's cgroup: $(cat /tmp/dd.err)"
done
in_game_cgroup "$node" ||
    { echo "$node (char-input, allowed) cannot be opened in the game's cgroup"; exit 1; }
echo "$node (allowed) opens in the game's cgroup"

echo "--- the package's rules under udev"
for device in "$node" /dev/fb0; do
    udevadm info --query=property --name="$device" | grep -E '^(ID_INPUT_ACCELEROMETER|CURRENT_TAGS)=' | sed "s|^|$device: |"
    udevadm info --query=property --name="$device" | grep -q '^CURRENT_TAGS=.*:uaccess:' ||
        { echo "udev did not tag $device for the seat's user (uaccess)"; exit 1; }
done

echo "--- tilting the sensor's near edge down"
systemctl kill -s USR1 tiltmaze-qemu-imu.service
screendump --pacman-below kiosk-level kiosk-tilted ||
    { echo "the pacman did not move down"; journalctl -b --no-pager -u $unit; exit 1; }
[ "$(systemctl is-active $unit)" = active ] || { echo "the game ended"; journalctl -b --no-pager -u $unit; exit 1; }
echo "the game's journal:"
journalctl -b --no-pager -o cat -u $unit
