#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Makes, or reuses, the Debian root the qemu tier's systemd scenarios boot
# (run.py --root-image): Debian 12 as a board's owner has it, with systemd as
# PID 1, udev, and the libraries the package depends on already installed,
# since the guest has no network for apt to fetch them.
#
#   scripts/qemu/systemd-root.sh CACHE_DIR PACKAGE.deb
#       e.g. /var/cache/tiltmaze/systemd-root tiltmaze_0.9.0_amd64.deb
#
# Result: CACHE_DIR/root.ext4, a 2 GB sparse ext4 image (about 400 MB used).
# Remade, saying so, when the package's Depends or this script change (the
# stamp file holds their digest); made beside the old one and renamed, so an
# interrupted run leaves the old image or none. Needs root (mmdebstrap makes
# the root as root, mkfs.ext4 -d copies owners) and deb.debian.org.
set -euo pipefail
say() { echo "systemd-root: $*" >&2; }
fail() { echo "systemd-root: $*" >&2; exit 1; }

[ $# = 2 ] || { echo "usage: $0 CACHE_DIR PACKAGE.deb" >&2; exit 2; }
cache=$1
package=$2
[ -f "$package" ] || fail "$package: no such package (make it with scripts/make-deb.py)"
for tool in mmdebstrap mkfs.ext4 dpkg-deb; do
    command -v "$tool" >/dev/null || fail "$tool not found (host packages: mmdebstrap, e2fsprogs, dpkg)"
done

# What the package needs, by name: its Depends without versions or
# alternatives' second choices (a|b → a).
depends=$(dpkg-deb -f "$package" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u)
[ -n "$depends" ] || fail "$package has no Depends: not a tiltmaze package?"
# A board's system: systemd as init, udev (the package's rules), kmod (udev
# loads the drivers), dbus (systemctl's peer on a real system). No
# Recommends, as a minimal image has none.
mapfile -t depends_list <<<"$depends"   # one name a line
packages=(systemd-sysv udev kmod dbus "${depends_list[@]}")

stamp=$( (echo "${packages[*]}"; sha256sum "$0" | cut -d' ' -f1) | sha256sum | cut -d' ' -f1)
if [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ] && [ -f "$cache/root.ext4" ]; then
    exit 0   # reused: silent
fi
[ "$(id -u)" = 0 ] || fail "making the root needs root (mmdebstrap, mkfs.ext4 -d with owners): run as root or with sudo"
if [ -f "$cache/stamp" ]; then
    say "the root in $cache was made for other packages: making it again (about a minute)"
else
    say "making the root in $cache (about a minute; later runs reuse it)"
fi

started=$SECONDS
mkdir -p "$cache"
new=$(mktemp -d "$cache/.new.XXXXXX")
trap 'rm -rf "$new"' EXIT
join() { local IFS=,; echo "$*"; }
mmdebstrap --quiet --variant=minbase --include="$(join "${packages[@]}")" \
    bookworm "$new/root" http://deb.debian.org/debian >&2 ||
    fail "mmdebstrap could not make the bookworm root from deb.debian.org"

# What the first boot would otherwise ask for or make up: a machine id (no
# systemd-firstboot prompt on the console), a host name, and a root mounted
# read-write by the first stage (no fstab entry to remount it otherwise).
echo 0123456789abcdef0123456789abcdef >"$new/root/etc/machine-id"
echo tiltmaze-qemu >"$new/root/etc/hostname"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 0' >"$new/root/etc/fstab"
# No time to wait for at boot: the guest has no network and no clock source
# to sync with.
rm -f "$new/root/etc/systemd/system/sysinit.target.wants/systemd-timesyncd.service"

mkfs.ext4 -q -L tiltmaze-root -d "$new/root" "$new/root.ext4" 2G >&2 ||
    fail "mkfs.ext4 -d could not make the image"
rm -rf "$new/root"
echo "$stamp" >"$new/stamp"
rm -rf "$cache/root.ext4" "$cache/stamp"
mv "$new/root.ext4" "$cache/root.ext4"
mv "$new/stamp" "$cache/stamp"
say "made $cache/root.ext4 in $((SECONDS - started)) s"
