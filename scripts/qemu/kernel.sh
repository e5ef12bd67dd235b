#!/usr/bin/env bash
# Fetches a real Debian 6.1 kernel for the qemu test tier and caches only the
# part of it the tier boots: the compressed kernel image and a few modules.
#
#   scripts/qemu/kernel.sh CACHE_DIR        e.g. .build/qemu/kernel
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
#   9p 9pnet_virtio virtio_pci
#                    sharing a host directory with the guest (qemu -virtfs)
set -euo pipefail

MODULES=(
    bochs cirrus virtio-gpu
    uinput evdev
    uhid hid-generic hid-playstation hid-nintendo
    hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d hid-sensor-trigger
    i2c-stub i2c-dev inv-mpu6050-i2c bmi160_i2c st_lsm6dsx_i2c
    9p 9pnet_virtio virtio_pci
)

if [ $# -ne 1 ]; then
    echo "usage: $0 CACHE_DIR" >&2
    exit 2
fi
cache=$1
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

# The newest 6.1 generic amd64 image apt knows, e.g. 6.1.0-56-amd64.
want=${TILTMAZE_QEMU_KERNEL:-}
if [ -z "$want" ]; then
    want=$(apt-cache search --names-only '^linux-image-6\.1\.[0-9]+-[0-9]+-amd64-unsigned$' 2>/dev/null |
        sed -n 's/^linux-image-\(6\.1\.[0-9]*-[0-9]*-amd64\)-unsigned .*/\1/p' | sort -V | tail -n 1)
fi

if [ -z "$want" ]; then
    if [ -n "$cached_version" ]; then
        exit 0   # apt knows no candidate (lists not downloaded): keep what we have
    fi
    echo "kernel.sh: apt knows no linux-image-6.1.*-amd64-unsigned package; run 'apt-get update' first" >&2
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
if ! (cd "$work" && apt-get download -q "$pkg" >"$work/apt.log" 2>&1); then
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
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/full" "./boot/vmlinuz-$want" "./lib/modules/$want"
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
