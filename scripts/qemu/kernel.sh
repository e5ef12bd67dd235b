#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Fetches a real Debian kernel for the qemu test tier and caches only the
# part of it the tier boots: the compressed kernel image and a few modules.
#
#   scripts/qemu/kernel.sh CACHE_DIR        e.g. .build/qemu/kernel: bookworm's 6.1 for amd64
#   scripts/qemu/kernel.sh CACHE_DIR arm64  e.g. .build/qemu/kernel-arm64: trixie's 6.12 for
#                                           arm64, the series Raspberry Pi OS runs, booted
#                                           under qemu-system-aarch64 -M virt
#
# Result (a few MB instead of the ~70 MB package / ~400 MB unpacked tree):
#   CACHE_DIR/vmlinuz                     the kernel image to pass to qemu -kernel
#   CACHE_DIR/version                     the kernel release, e.g. 6.1.0-56-amd64
#   CACHE_DIR/lib/modules/VERSION/...     the modules below with every module they
#                                         depend on, indexed by depmod so that
#                                         busybox modprobe in the guest resolves them
#
# Idempotent: prints nothing and does nothing when the cache already holds the
# newest linux-image-6.1.*-amd64-unsigned that apt knows about (apt-cache only
# reads the local package lists; it never touches the network) with the same
# module list. When apt has no such package in its lists (run `apt-get update`
# once) or the download fails, an existing cache is used as it is.
# Set TILTMAZE_QEMU_KERNEL=6.1.0-NN-amd64 to pin one release.
#
# arm64: this machine's apt has no trixie arm64 lists, so a private apt state
# (CACHE_DIR.apt, beside the cache) holds them: fetched once (about 10 MB),
# then read from there; set TILTMAZE_QEMU_KERNEL=6.12.NNN+deb13-arm64 to pin
# one, or TILTMAZE_QEMU_KERNEL_UPDATE=1 to fetch the lists again.
#
# Needs: apt-get (download only, no root needed for that but the cache directory
# must be writable), dpkg-deb, tar, and kmod (depmod, modprobe --show-depends).
#
# Why these modules: Debian builds the drivers the tier exercises as modules.
#   bochs            DRM driver for `qemu -vga std`: /dev/fb0 1280x800 XRGB8888
#                    through DRM's fbdev emulation (the same layer as the Pi's vc4)
#   cirrus           DRM driver for `qemu -vga cirrus`: /dev/fb0 1024x768 RGB565
#                    (the plain vesafb RGB565 mode needs no module: it is built in,
#                    chosen with vga=0x314 on the kernel command line)
#   virtio-gpu       DRM driver for `qemu -vga virtio`: KMS on a paravirtual GPU
#   uinput evdev     synthetic input devices and their /dev/input/event* nodes
#   uhid hid-generic hid-playstation hid-nintendo
#                    real HID game-pad drivers fed from user space over /dev/uhid
#   hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d hid-sensor-trigger
#                    HID sensor-hub IIO drivers (laptop/tablet style motion sensors)
#   i2c-stub i2c-dev inv-mpu6050-i2c bmi160_i2c st_lsm6dsx_i2c
#                    real IIO IMU drivers bound to a simulated I2C bus
#   ti-ads1015       an IIO ADC on the same bus: a device the udev rules must not grant
#   9p 9pnet_virtio virtio_pci
#                    sharing a host directory with the guest (qemu -virtfs)
#   virtio_blk ext4 crc32c_generic autofs4
#                    the systemd scenarios' Debian root, a virtio disk with ext4
#                    (crc32c for its metadata checksums; systemd wants autofs4)
set -euo pipefail

#
# arm64 has no ISA VGA (cirrus), and trixie's arm64 kernel no i2c-stub: its
# guest runs the scenarios whose code differs by architecture (ioctl
# structures, mmap of a framebuffer or dumb buffer, evdev timestamps, IIO scan
# decoding), and the i2c-stub ones stay on amd64. virtio_pci and the virtio
# console (its control channel) are built into that kernel.
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 CACHE_DIR [amd64|arm64]" >&2
    exit 2
fi
cache=$1
arch=${2:-amd64}
case "$arch" in
    amd64)
        MODULES=(
            bochs cirrus virtio-gpu
            uinput evdev
            uhid hid-generic hid-playstation hid-nintendo
            hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d hid-sensor-trigger
            i2c-stub i2c-dev inv-mpu6050-i2c bmi160_i2c st_lsm6dsx_i2c ti-ads1015
            9p 9pnet_virtio virtio_pci
            virtio_blk ext4 crc32c_generic autofs4
        )
        pattern='^linux-image-6\.1\.[0-9]+-[0-9]+-amd64-unsigned$'
        apt_options=()
        ;;
    arm64)
        MODULES=(
            bochs virtio-gpu
            uinput evdev
            uhid hid-generic hid-playstation hid-nintendo
            hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d hid-sensor-trigger
        )
        pattern='^linux-image-6\.12\.[0-9]+\+deb13-arm64-unsigned$'
        state=$(realpath -m "$cache").apt   # apt reads relative Dir:: paths from /
        apt_options=(-o "Dir::State=$state/state" -o "Dir::Cache=$state/cache"
            -o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1)
        ;;
    *) echo "kernel.sh: no kernel for architecture $arch (amd64 or arm64)" >&2; exit 2 ;;
esac
export PATH="$PATH:/usr/sbin:/sbin"   # depmod and modprobe live in sbin

for tool in apt-get apt-cache dpkg-deb depmod modprobe; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "kernel.sh: $tool not found (host packages needed: kmod, plus Debian's apt and dpkg)" >&2
        exit 1
    fi
done

# The signature of what a complete cache holds: release plus module list.
signature() { printf '%s\n' "$1" "${MODULES[@]}"; }

cached_version=""
if [ -f "$cache/stamp" ] && [ -f "$cache/version" ] && [ -f "$cache/vmlinuz" ]; then
    cached_version=$(cat "$cache/version")
fi

if [ "$arch" = arm64 ] && { [ ! -d "$state/state/lists" ] || [ "${TILTMAZE_QEMU_KERNEL_UPDATE:-}" = 1 ]; } &&
    { [ -z "$cached_version" ] || [ "${TILTMAZE_QEMU_KERNEL_UPDATE:-}" = 1 ]; }; then
    mkdir -p "$state/state/lists/partial" "$state/cache/archives/partial"
    echo "deb http://deb.debian.org/debian trixie main" >"$state/sources.list"
    apt-get "${apt_options[@]}" -q update >"$state/update.log" 2>&1 ||
        { cat "$state/update.log" >&2; echo "kernel.sh: cannot fetch trixie's arm64 package lists" >&2; [ -n "$cached_version" ] || exit 1; }
fi

# The newest image of the series apt knows, e.g. 6.1.0-56-amd64.
want=${TILTMAZE_QEMU_KERNEL:-}
if [ -z "$want" ]; then
    want=$(apt-cache "${apt_options[@]}" search --names-only "$pattern" 2>/dev/null |
        sed -n 's/^linux-image-\([^ ]*\)-unsigned .*/\1/p' | sort -V | tail -n 1)
fi

if [ -z "$want" ]; then
    if [ -n "$cached_version" ]; then
        exit 0   # apt knows no candidate (lists not downloaded): keep what we have
    fi
    echo "kernel.sh: apt knows no package matching $pattern; run 'apt-get update' first" >&2
    exit 1
fi

if [ "$cached_version" = "$want" ] && [ "$(cat "$cache/stamp")" = "$(signature "$want")" ]; then
    exit 0   # cache hit: silent
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tiltmaze-kernel.XXXXXX")
trap 'rm -rf "$work"' EXIT

pkg="linux-image-$want-unsigned"
echo "kernel.sh: fetching $pkg (about 70 MB, kept: a few MB)" >&2
# apt-get download writes into the current directory. As root it warns that the
# _apt user cannot write there; that warning is harmless, so let the directory be
# world-writable for the download.
chmod 0777 "$work"
if ! (cd "$work" && apt-get "${apt_options[@]}" download -q "$pkg" >"$work/apt.log" 2>&1); then
    cat "$work/apt.log" >&2
    if [ -n "$cached_version" ]; then
        echo "kernel.sh: download failed; keeping the cached $cached_version" >&2
        exit 0
    fi
    exit 1
fi
deb=$(ls "$work"/*.deb)

# Unpack the image and the whole module tree into the scratch directory (about
# 400 MB, deleted on exit) because depmod needs the full tree to work out the
# dependencies of the modules we keep.
mkdir "$work/full"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/full" --wildcards "./boot/vmlinuz-$want" "./lib/modules/$want" "./usr/lib/modules/$want" 2>/dev/null || true
[ -f "$work/full/boot/vmlinuz-$want" ] || { echo "kernel.sh: $pkg holds no boot/vmlinuz-$want" >&2; exit 1; }
# trixie's packages put the modules under /usr (merged /usr), bookworm's under /lib.
if [ -d "$work/full/usr/lib/modules/$want" ]; then
    mkdir -p "$work/full/lib/modules" && mv "$work/full/usr/lib/modules/$want" "$work/full/lib/modules/"
fi
[ -d "$work/full/lib/modules/$want" ] || { echo "kernel.sh: $pkg holds no modules for $want" >&2; exit 1; }
depmod -b "$work/full" "$want"

# Built next to the cache so that the final rename is atomic.
mkdir -p "$(dirname "$cache")"
new=$(mktemp -d "$(dirname "$cache")/.kernel-new.XXXXXX")
trap 'rm -rf "$work" "$new"' EXIT
mkdir -p "$new/lib/modules/$want"
cp "$work/full/boot/vmlinuz-$want" "$new/vmlinuz"
# Small index files that help (busybox) modprobe answer for built-in drivers.
for f in modules.builtin modules.builtin.modinfo modules.order; do
    if [ -f "$work/full/lib/modules/$want/$f" ]; then
        cp "$work/full/lib/modules/$want/$f" "$new/lib/modules/$want/"
    fi
done

# `modprobe --show-depends` prints one "insmod PATH" line per module to load,
# dependencies first (soft dependencies included).
for m in "${MODULES[@]}"; do
    if ! lines=$(modprobe -d "$work/full" -S "$want" --show-depends "$m" 2>&1); then
        echo "kernel.sh: module $m is not in $pkg: $lines" >&2
        exit 1
    fi
    printf '%s\n' "$lines"
done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r path; do
    rel=${path#"$work/full/"}
    mkdir -p "$new/$(dirname "$rel")"
    cp "$path" "$new/$rel"
done

depmod -b "$new" "$want"
printf '%s\n' "$want" >"$new/version"
signature "$want" >"$new/stamp"

# Replace the cache in one go (an interrupted run leaves no half cache behind:
# without "stamp" the next run starts over).
chmod 0755 "$new"
rm -rf "$cache"
mv "$new" "$cache"
echo "kernel.sh: cached $want in $cache ($(du -sh "$cache" | cut -f1))" >&2
