# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# A board's owner installs the package on Debian 12 booted with systemd and
# makes tty1 boot into the game. Before: tty1 shows its login prompt. Then
# `apt-get install ./tiltmaze_*.deb` (its dependencies are in the image: the
# guest has no network), `tiltmaze kiosk enable`, and a reboot (the runner
# does it once this scenario passes). The board's sensor, a uinput one made
# at boot (tiltmaze-qemu-imu.service), is in place before the reboot as a
# wired IMU would be.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

echo "system: $(systemctl is-system-running --wait 2>&1 || true)"
systemctl --failed --no-legend --plain | sed 's/^/failed unit: /'
wait_for "getty on tty1" '[ "$(systemctl is-active getty@tty1.service)" = active ]'
wait_for "a login prompt on tty1" 'grep -q "login:" /dev/vcs1'

cd /scenario
package=$(ls tiltmaze_*.deb)
apt-get install -y --no-install-recommends "./$package" >/tmp/apt.log 2>&1 ||
    { echo "apt-get install ./$package failed:"; cat /tmp/apt.log; exit 1; }
grep -E '^(Setting up|tiltmaze:)' /tmp/apt.log
tiltmaze --version
getent group tiltmaze
[ -f /lib/systemd/system/tiltmaze-console@.service ] || { echo "the package installed no console unit"; exit 1; }

cp /scenario/tiltmaze-qemu-imu.service /etc/systemd/system/
systemctl enable tiltmaze-qemu-imu.service

tiltmaze kiosk enable >/tmp/kiosk.out 2>&1 || { echo "tiltmaze kiosk enable failed:"; cat /tmp/kiosk.out; exit 1; }
cat /tmp/kiosk.out
says /tmp/kiosk.out "tty1 boots into TiltMaze from the next start"
[ "$(systemctl is-enabled tiltmaze-console@tty1.service)" = enabled ] || { echo "the kiosk's unit is not enabled"; exit 1; }
[ "$(systemctl is-enabled getty@tty1.service)" = disabled ] || { echo "getty@tty1 is still enabled"; exit 1; }
request-reboot
