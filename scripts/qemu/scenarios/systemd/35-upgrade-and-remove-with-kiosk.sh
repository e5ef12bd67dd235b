# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# The maintainer scripts' other paths with the kiosk enabled and the game
# running on tty1 (10 installed with it off; 40 purges with it on):
# - an upgrade (the same package again: prerm upgrade, postinst configure
#   with the old version) leaves the kiosk as it was: enabled, its drop-in
#   kept, getty still off, the game still running (a player's game is not cut
#   off by apt; the new program starts at its next start);
# - a remove (no purge) gives tty1 its login prompt back and leaves no unit
#   or drop-in, but keeps the game's state (progress, calibration), which
#   only a purge deletes;
# - installed again, the package does not turn the kiosk back on.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service
package=$(ls /scenario/tiltmaze_*.deb)

tiltmaze kiosk enable >/tmp/kiosk.out 2>&1 || { echo "tiltmaze kiosk enable failed:"; cat /tmp/kiosk.out; exit 1; }
systemctl start $unit
wait_for "the game on tty1" '[ "$(systemctl is-active $unit)" = active ] && [ -d /var/lib/private/tiltmaze-console/tty1 ]'
game=$(systemctl show -p MainPID --value $unit)

echo "--- upgrade"
apt-get install -y --reinstall "$package" >/tmp/apt.log 2>&1 || { echo "apt-get install --reinstall failed:"; cat /tmp/apt.log; exit 1; }
grep -E '^(Preparing|Unpacking|Setting up|Removed|Created|tty|tiltmaze)' /tmp/apt.log
[ "$(systemctl is-enabled $unit)" = enabled ] || { echo "the upgrade disabled the kiosk"; exit 1; }
[ -f /etc/systemd/system/$unit.d/kiosk.conf ] || { echo "the upgrade removed the kiosk's drop-in"; exit 1; }
[ "$(systemctl is-enabled getty@tty1.service)" = disabled ] || { echo "the upgrade turned getty on again"; exit 1; }
[ "$(systemctl show -p MainPID --value $unit)" = "$game" ] || { echo "the upgrade restarted the game"; exit 1; }
grep -q 'added .* to the group' /tmp/apt.log && { echo "the upgrade added someone to the group"; exit 1; }

echo "--- remove"
apt-get remove -y tiltmaze >/tmp/apt.log 2>&1 || { echo "apt-get remove tiltmaze failed:"; cat /tmp/apt.log; exit 1; }
grep -E '^(Removing|Removed|Created|tty|tiltmaze)' /tmp/apt.log
[ ! -e /lib/systemd/system/tiltmaze-console@.service ] || { echo "the unit is still installed"; exit 1; }
[ ! -e /etc/systemd/system/$unit.d ] || { echo "the kiosk's drop-in is left"; exit 1; }
[ ! -L /etc/systemd/system/multi-user.target.wants/$unit ] || { echo "the wants link is left"; exit 1; }
[ "$(systemctl is-active $unit)" != active ] || { echo "the game still runs"; exit 1; }
[ "$(systemctl is-enabled getty@tty1.service)" = enabled ] || { echo "getty@tty1 is not enabled again"; exit 1; }
wait_for "getty on tty1" '[ "$(systemctl is-active getty@tty1.service)" = active ]'
wait_for "a login prompt on tty1" 'grep -q "login:" /dev/vcs1'
[ -d /var/lib/private/tiltmaze-console/tty1 ] || { echo "remove (not purge) deleted the game's state"; exit 1; }

echo "--- installed again"
apt-get install -y "$package" >/tmp/apt.log 2>&1 || { echo "apt-get install failed:"; cat /tmp/apt.log; exit 1; }
[ "$(systemctl is-enabled $unit)" = disabled ] || { echo "installing again turned the kiosk on"; exit 1; }
[ "$(systemctl is-active getty@tty1.service)" = active ] || { echo "installing again stopped getty"; exit 1; }
