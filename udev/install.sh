#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Installs (or removes) TiltMaze's udev rules, their helper, the group they
# grant, and the boot-time hrtimer trigger's unit (enabled with --hrtimer),
# for a player who runs the game from the build tree; `make install` and the
# package install the same files (scripts/install.py has the list) and more.
# Run from anywhere:
#
#   sudo udev/install.sh              rules + helper + group; adds you to it
#   sudo udev/install.sh --hrtimer    the same, plus tiltmaze-hrtimer.service
#   sudo udev/install.sh --uninstall  removes all of it but the group (it says why)
#
# udev/README.md lists the same steps for doing it by hand.
set -eu

group=tiltmaze
here=$(cd "$(dirname "$0")" && pwd)
rules=/etc/udev/rules.d/70-tiltmaze.rules
helper=/usr/local/lib/tiltmaze/tiltmaze-sysfs-access
unit=/etc/systemd/system/tiltmaze-hrtimer.service

say() { echo "tiltmaze: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
    say "run this as root: sudo $0 $*"
    exit 1
fi

mode=install
hrtimer=no
for arg in "$@"; do
    case $arg in
    --hrtimer) hrtimer=yes ;;
    --uninstall) mode=uninstall ;;
    *) say "unknown option $arg (use --hrtimer or --uninstall)"; exit 2 ;;
    esac
done

reload_udev() {
    udevadm control --reload
    # Re-apply to what is plugged in now: IIO devices and triggers, input
    # nodes, framebuffers (a module is not re-triggered by this; see below).
    udevadm trigger --subsystem-match=iio --subsystem-match=input --subsystem-match=graphics
    udevadm settle || true
}

if [ $mode = uninstall ]; then
    if [ -f "$unit" ]; then
        systemctl disable --now tiltmaze-hrtimer.service || say "could not stop tiltmaze-hrtimer.service"
    fi
    python3 "$here/../scripts/install.py" uninstall --only udev >/dev/null
    [ -d /run/systemd/system ] && systemctl daemon-reload
    reload_udev
    if getent group "$group" >/dev/null; then
        say "kept group $group: device nodes and sysfs attributes carry its id until they are made again (at the next boot), and a group later given that id would inherit their access; after a reboot, sudo groupdel $group removes it"
    fi
    say "removed $rules and $helper; devices get their default permissions when next added (at the latest, the next boot)"
    exit 0
fi

# The rules give the group read access to controllers by an ACL entry.
if ! command -v setfacl >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        say "installing acl (setfacl), which the rules use for controllers"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q acl >/dev/null
    else
        say "setfacl not found: install your system's acl package, or controllers stay unreadable to group $group"
    fi
fi

made=no
getent group "$group" >/dev/null || made=yes
# The files from the list `make install` and the package use, the groups'
# declaration (sysusers.d) among them.
python3 "$here/../scripts/install.py" install --only udev >/dev/null
if command -v systemd-sysusers >/dev/null 2>&1; then
    systemd-sysusers /etc/sysusers.d/tiltmaze.conf
elif [ $made = yes ]; then
    groupadd --system "$group"
fi
[ $made = no ] || say "created group $group"
reload_udev
# Earlier versions let the group make hrtimer triggers and set triggers'
# rates: take that back now rather than at the next boot.
"$helper" "$group" revoke-triggers || true

if [ $hrtimer = yes ]; then
    systemctl daemon-reload
    systemctl enable --now tiltmaze-hrtimer.service
    say "hrtimer trigger 'tiltmaze' is made at every boot (remove: sudo systemctl disable --now tiltmaze-hrtimer.service)"
fi

# The user who ran sudo joins the group; root itself needs no group.
user=${SUDO_USER:-}
if [ -n "$user" ] && [ "$user" != root ]; then
    if id -nG "$user" | tr ' ' '\n' | grep -qx "$group"; then
        say "$user is already in group $group"
    else
        usermod -aG "$group" "$user"
        say "added $user to group $group: log out and in again (or reboot) for it to take effect"
    fi
else
    say "add each player with: sudo usermod -aG $group NAME (then they log out and in again)"
fi
say "installed $rules and $helper. Check with: tiltmaze doctor"
