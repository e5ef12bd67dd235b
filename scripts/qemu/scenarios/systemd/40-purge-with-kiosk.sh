# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# The owner purges the package while the kiosk is enabled and the game runs
# on tty1 (the maintainer scripts must give the console back themselves).
# Afterwards: no unit, drop-in, wants link, state directory or other file of
# the package left, the game not running, getty enabled and running on tty1
# with its login prompt; the groups stay (their ids are still on device
# files until the next boot).
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service

tiltmaze kiosk enable >/tmp/kiosk.out 2>&1 || { echo "tiltmaze kiosk enable failed:"; cat /tmp/kiosk.out; exit 1; }
systemctl start $unit
wait_for "the game on tty1" '[ "$(systemctl is-active $unit)" = active ] && [ -d /var/lib/private/tiltmaze-console/tty1 ]'
[ "$(systemctl is-active getty@tty1.service)" != active ] || { echo "getty still runs on tty1"; exit 1; }
ls -la /etc/systemd/system/tiltmaze-console@tty1.service.d /var/lib/private/tiltmaze-console

apt-get purge -y tiltmaze >/tmp/apt.log 2>&1 || { echo "apt-get purge tiltmaze failed:"; cat /tmp/apt.log; exit 1; }
grep -E '^(Removing|Purging|Removed|Created|tty|tiltmaze)' /tmp/apt.log
dpkg-query -W -f='${Status}\n' tiltmaze 2>/dev/null | grep -q installed && { echo "tiltmaze is still installed"; exit 1; }

left=$(find / -xdev \( -path /scenario -o -path /proc -o -path /sys -o -path /usr/local/lib/tiltmaze-qemu \) -prune -o \
    -name '*tiltmaze*' ! -name 'tiltmaze-qemu*' -print)
[ -z "$left" ] || { echo "left after the purge:"; echo "$left"; exit 1; }
[ "$(systemctl is-active $unit)" != active ] || { echo "the game still runs"; exit 1; }
[ "$(systemctl is-enabled getty@tty1.service)" = enabled ] || { echo "getty@tty1 is not enabled again"; exit 1; }
wait_for "getty on tty1" '[ "$(systemctl is-active getty@tty1.service)" = active ]'
wait_for "a login prompt on tty1" 'grep -q "login:" /dev/vcs1'
getent group tiltmaze >/dev/null || { echo "the purge removed the group tiltmaze"; exit 1; }
screendump purged
