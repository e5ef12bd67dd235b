#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Installs the Debian packages TiltMaze needs to build, test or play, and
# nothing that is already there. Uses sudo when not run as root.
#
#   scripts/install-deps.sh play   # build and play
#   scripts/install-deps.sh test   # build and run every test
#   scripts/install-deps.sh deb    # build the Debian package
#   scripts/install-deps.sh arm64  # make the arm64 tier's roots (scripts/arm64/roots.sh)
#   scripts/install-deps.sh fresh  # make a fresh Debian root to install into (scripts/fresh-machine.sh)
set -euo pipefail

purpose=${1:-play}

# Build: pkg-config finds libiio, libevdev, libpng and libdrm for the CIIO/CEvdev/CPNG/CDRM targets.
packages=(pkg-config libiio-dev libevdev-dev libpng-dev libdrm-dev)
# dpkg-shlibdeps finds the package's Depends.
if [ "$purpose" = deb ]; then
    packages+=(dpkg-dev)
fi
if [ "$purpose" = test ]; then
    # tmux drives the end-to-end terminal test; umockdev fakes IIO and evdev devices;
    # python3 checks the module layers (scripts/check-module-layers.py) and runs
    # the qemu tier, which boots Debian's kernel under qemu with a static busybox
    # (x86_64, and arm64 with qemu-system-arm: the arm64 program on its kernel);
    # python3-png (pypng) reads the qemu tier's screendumps (scripts/qemu/pngread.py);
    # iiod serves a mock IMU over TCP for the --iio-uri tests.
    # The package is built, linted and installed in an overlaid root: dpkg-dev,
    # lintian, and systemd (systemctl, systemd-analyze and systemd-sysusers,
    # for the units, their sandbox's rating, the groups and tiltmaze kiosk).
    # acl: the udev helper's setfacl, run on fixtures (the package Depends on it).
    # stress-ng keeps the CPUs and the disk busy while the suite runs (scripts/with-load.sh).
    # The qemu tier's systemd scenarios boot a Debian root made with mmdebstrap
    # into an ext4 image (e2fsprogs' mkfs.ext4 -d).
    # scripts/check-shell.sh runs shellcheck over every shell script of the tree.
    packages+=(tmux umockdev libumockdev-dev python3 python3-png qemu-system-x86 qemu-system-arm busybox-static kmod iiod
        dpkg-dev lintian systemd stress-ng mmdebstrap e2fsprogs acl shellcheck)
fi

if [ "$purpose" = arm64 ]; then
    # Debian roots made with mmdebstrap; arm64 programs run by qemu-user through binfmt_misc.
    # mmdebstrap only Recommends arch-test, which --no-install-recommends skips, yet it
    # refuses a foreign architecture without it ("install arch-test for foreign
    # architecture support").
    packages=(mmdebstrap arch-test qemu-user-static binfmt-support)
fi

# Swift 6.1 or newer: swift-system 1.8, which TiltMaze uses, needs it. Debian's
# own swiftlang is 6.0.3 in trixie (Raspberry Pi OS's base) and too old; the
# toolchain to install is swift.org's, with swiftly.
swift_advice() {
    cat >&2 <<'ADVICE'
tiltmaze: install Swift 6.1 or newer from swift.org with swiftly (on a Pi too: 64-bit Raspberry Pi OS):
    curl -L https://download.swift.org/swiftly/linux/swiftly-$(uname -m).tar.gz > swiftly.tar.gz
    tar zxf swiftly.tar.gz && ./swiftly init
    . ~/.local/share/swiftly/env.sh
  (Debian's own swiftlang package is Swift 6.0.3 in Debian 13 and Raspberry Pi OS trixie:
  too old to build swift-system 1.8. See hardware.md, "Building on the Pi".)
ADVICE
}
if [ "$purpose" = fresh ]; then
    # A throwaway Debian root, copied into with cpio.
    packages=(mmdebstrap cpio)
fi

if [ "$purpose" != arm64 ] && [ "$purpose" != fresh ]; then
    if ! command -v swift >/dev/null 2>&1; then
        echo "tiltmaze: Swift is not installed (or not on PATH)." >&2
        swift_advice
        exit 1
    fi
    version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p' | head -n 1)
    if [ -n "$version" ]; then
        read -r major minor <<<"$version"
        if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 1 ]; }; then
            echo "tiltmaze: $(command -v swift) is Swift $major.$minor; TiltMaze needs 6.1 or newer." >&2
            swift_advice
            exit 1
        fi
    fi
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "tiltmaze: need these Debian packages and cannot install them without root or sudo: ${missing[*]}" >&2
    exit 1
fi

echo "tiltmaze: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian's iiod package enables a service that serves this machine's IIO
# devices to the network from boot. The tests start their own iiod on a
# private port; a daemon installed only for them should not stay running.
if [[ " ${missing[*]} " == *" iiod "* ]] && command -v systemctl >/dev/null 2>&1; then
    "${sudo[@]}" systemctl disable --now iiod.service >/dev/null 2>&1 || true
    echo "tiltmaze: installed iiod for the tests and left its service disabled (systemctl enable --now iiod to serve this machine's sensors)" >&2
fi
