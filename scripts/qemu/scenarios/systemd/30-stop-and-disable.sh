# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# The owner stops the game, then gives tty1 back to its login prompt.
# - `systemctl stop` ends the game with status 0 (SIGTERM is its own way
#   out) and the console is restored: text mode, and the screen is no longer
#   the game's (host-check);
# - `tiltmaze kiosk disable` turns the unit off and getty on again: a login
#   prompt on tty1.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
unit=tiltmaze-console@tty1.service

[ "$(systemctl is-active $unit)" = active ] || { echo "the kiosk's unit is not running"; exit 1; }
systemctl stop $unit
systemctl show -p Result -p ExecMainStatus $unit | tee /tmp/show
says /tmp/show Result=success ExecMainStatus=0
wait_for "tty1 in text mode" 'tty1_mode_is text'
screendump --at-most expected-kiosk-level 34 50 kiosk-stopped

tiltmaze kiosk disable >/tmp/kiosk.out 2>&1 || { echo "tiltmaze kiosk disable failed:"; cat /tmp/kiosk.out; exit 1; }
cat /tmp/kiosk.out
says /tmp/kiosk.out "its login prompt is back"
[ "$(systemctl is-enabled $unit)" = disabled ] || { echo "$unit is still enabled"; exit 1; }
[ "$(systemctl is-enabled getty@tty1.service)" = enabled ] || { echo "getty@tty1 is not enabled again"; exit 1; }
wait_for "getty on tty1" '[ "$(systemctl is-active getty@tty1.service)" = active ]'
wait_for "a login prompt on tty1" 'grep -q "login:" /dev/vcs1'
screendump getty-back
