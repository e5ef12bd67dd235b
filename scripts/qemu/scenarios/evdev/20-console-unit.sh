# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The console unit's own command line brings the game up on tty1 on bochs's
# display. The guest has no systemd, so the scenario runs what the unit runs
# (systemd/tiltmaze-console@.service, copied here by host-prepare): its
# ExecStart with its environment, tty1 as its controlling terminal. Started
# before any sensor exists, the game must wait (--wait-for-sensor), saying so
# on the screen as well as in its log, take the
# motion sensor that appears once it has said so, and draw the campaign's first level
# (host-check compares it with `tiltmaze snapshot` of that level); SIGTERM,
# what systemd sends to stop it, must end it with status 0.
# (systemd-analyze verify and the unit's user, group and restarts are checked
# by make test-deb in a chroot with the package installed.)
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

modprobe bochs
modprobe uinput
modprobe evdev
wait-for /dev/dri/card0
wait-for /dev/uinput

unit=/scenario/tiltmaze-console@.service
command=$(sed -n 's/^ExecStart=//p' "$unit")
case $command in
/usr/bin/tiltmaze\ *) ;;
*) echo "the unit's ExecStart is not /usr/bin/tiltmaze …: $command"; exit 1 ;;
esac
arguments=${command#/usr/bin/tiltmaze }
environment=$(sed -n 's/^Environment=//p' "$unit" | sed 's|%S|/tmp/state|g; s|%i|tty1|g')
echo "ExecStart: $command"
echo "Environment: $environment"
mkdir -p /tmp/state/tiltmaze-console/tty1

chvt 1
rm -f /tmp/unit.status /tmp/unit.err
# $arguments and $environment unquoted on purpose: systemd splits them at spaces too.
# The inner shell's $0 and $@ are its own: the program and its arguments.
# shellcheck disable=SC2086,SC2016
setsid env $environment sh -c 'exec </dev/tty1 >/dev/tty1 2>/tmp/unit.err; "$0" "$@"; echo $? > /tmp/unit.status' \
    "$BINARY" $arguments &

wait_for "the game to say it waits for a sensor (or to end)" '[ -e /tmp/unit.status ] || grep -q "looking again" /tmp/unit.err 2>/dev/null' ||
    { echo "the game did not say it waits for a sensor:"; cat /tmp/unit.err; exit 1; }
[ ! -e /tmp/unit.status ] || { echo "the game ended while waiting for a sensor:"; cat /tmp/unit.err; exit 1; }
# Its errors go to the journal under systemd: the screen must say it too (tty1's text, from /dev/vcs1).
wait_for "tty1 to say the game waits for a sensor" 'grep -q "no motion sensor yet: looking again" /dev/vcs1' ||
    { echo "tty1 does not say the game waits for a sensor"; exit 1; }

./imu 0 > /tmp/imu.node &
imu=$!
wait_for "the uinput motion sensor's node" '[ -s /tmp/imu.node ]'
node=$(cat /tmp/imu.node)
echo "motion sensor at $node"

# Up: its sensor and physics threads running (or it ended, which fails).
game=
game_up() {
    [ ! -e /tmp/unit.status ] || return 0
    for d in /proc/[0-9]*; do
        [ "$(readlink "$d/exe" 2>/dev/null)" = "$BINARY" ] || continue
        # shellcheck disable=SC2012 # counts its threads, whose names are their ids (digits)
        [ "$(ls "$d/task" | wc -l)" -ge 3 ] && game=${d#/proc/}
    done
    [ -n "$game" ]
}
wait_for "the game to start on the sensor" 'game_up' || { echo "the game did not start:"; cat /tmp/unit.err; exit 1; }
if [ -e /tmp/unit.status ]; then echo "the game ended (status $(cat /tmp/unit.status)):"; cat /tmp/unit.err; exit 1; fi
has_open "$game" "$node" || { echo "the game does not read $node:"; cat /tmp/unit.err; exit 1; }
wait-kms-flip
screendump --at-least expected-console-unit 34 97 console-unit

kill -TERM "$game"
wait_for "the game to end after SIGTERM" '[ -e /tmp/unit.status ]' || true
kill "$imu" 2>/dev/null || true
[ "$(cat /tmp/unit.status 2>/dev/null)" = 0 ] || { echo "SIGTERM did not end the game with status 0:"; cat /tmp/unit.err; exit 1; }
echo "the game's messages (the journal's, under systemd):"
cat /tmp/unit.err
