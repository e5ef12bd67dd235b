#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Builds the initramfs the qemu test tier boots.
#
#   scripts/qemu/initramfs.sh OUT.cpio.gz BINARY [EXTRA_DIR]
#   scripts/qemu/initramfs.sh OUT.cpio    BINARY [EXTRA_DIR]   (uncompressed)
#
# The archive holds:
#   - busybox (a static build) and a link for each of its applets (sh, mount,
#     modprobe, dd, stty, timeout, i2cset, ...);
#   - the kernel modules cached by kernel.sh (lib/modules/VERSION, with depmod's
#     index), taken from $QEMU_KERNEL_CACHE (default: .build/qemu/kernel in the
#     repository);
#   - BINARY as /usr/local/bin/NAME (its path is written to
#     /etc/tiltmaze-qemu/binary and exported to scenarios as $BINARY), plus every
#     shared library `ldd BINARY` lists and the dynamic loader, each at the same
#     absolute path as on the host so the binary's RUNPATH and the loader's
#     default directories find them (libraries loaded later with dlopen are not
#     seen by ldd and are not included);
#   - EXTRA_DIR's contents under /scenario (scenario scripts and their data;
#     host-side hooks named host-prepare/host-check are left out);
#   - guest/init as /init and the helpers in guest/bin (screendump, wait-for, start-game, stop-game)
#     in /usr/local/bin; guest/lib (scenario-lib, the shell functions scenarios
#     source: wait_for ...) in /usr/local/lib/tiltmaze-qemu.
#
# BINARY `-`: no program (a guest whose root is a disk with the program
# installed from its package: TILTMAZE_QEMU_INIT=systemd).
#
# TILTMAZE_QEMU_INIT=systemd makes the stage that boots a Debian root with
# systemd from the first virtio disk: guest/init-systemd as /init, which lays
# the modules, the scenarios, the helpers and guest/systemd's runner into
# that root and hands over to its systemd (run.py --root-image).
#
# TILTMAZE_QEMU_SYSROOT=DIR builds the initramfs of a foreign guest (arm64)
# from that Debian root instead of this machine: its static busybox
# (busybox-static) becomes the guest's userland, and BINARY's libraries are
# listed by the root's own dynamic loader (run by qemu-user, `ld.so --list`,
# with the root as its prefix) and copied from the root.
#
# Needs: busybox-static (the static busybox is both the guest's userland and the
# cpio writer), ldd (libc-bin), gzip, tar; for a sysroot, qemu-user-static.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 OUT.cpio.gz BINARY [EXTRA_DIR]" >&2
    exit 2
fi
out=$1
binary=$2
extra=${3:-}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${QEMU_KERNEL_CACHE:-$repo/.build/qemu/kernel}

die() { echo "initramfs.sh: $*" >&2; exit 1; }

[ "$binary" = - ] || { [ -f "$binary" ] && [ -x "$binary" ]; } || die "$binary is not an executable file"
[ -z "$extra" ] || [ -d "$extra" ] || die "$extra is not a directory"
[ -f "$cache/version" ] || die "no kernel cache in $cache (run scripts/qemu/kernel.sh $cache first)"
version=$(cat "$cache/version")

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox not found (host package: busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
    die "$busybox is dynamically linked; the guest needs the static one (host package: busybox-static)"
fi
init=${TILTMAZE_QEMU_INIT:-busybox}
case "$init" in busybox | systemd) ;; *) die "TILTMAZE_QEMU_INIT=$init: busybox or systemd" ;; esac
sysroot=${TILTMAZE_QEMU_SYSROOT:-}
guest_busybox=$busybox
if [ -n "$sysroot" ]; then
    guest_busybox=$sysroot/usr/bin/busybox
    [ -x "$guest_busybox" ] || die "no busybox in $sysroot (its package busybox-static)"
    loaders=("$sysroot"/lib/ld-linux-*.so.*)
    [ -e "${loaders[0]}" ] || die "no dynamic loader in $sysroot/lib"
    loader=${loaders[0]#"$sysroot"/}   # lib/ld-linux-aarch64.so.1
    qemu_user=$(command -v qemu-aarch64-static || true)
    [ -n "$qemu_user" ] || die "qemu-aarch64-static not found (host package: qemu-user-static)"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/tiltmaze-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc/tiltmaze-qemu,proc,sys,dev,tmp,run,root,mnt,host,scenario,lib/modules}
chmod 1777 "$root/tmp"

# busybox and its applets. `--list-full` names each applet with its directory
# (bin/sh, sbin/modprobe, usr/bin/timeout, ...). The busybox name itself is
# skipped: a link called bin/busybox would replace the real binary.
cp "$guest_busybox" "$root/bin/busybox"
"$guest_busybox" --list-full | while read -r applet; do
    case "$applet" in
        bin/busybox | "") continue ;;
    esac
    [ -e "$root/$applet" ] && continue
    mkdir -p "$root/$(dirname "$applet")"
    ln -s /bin/busybox "$root/$applet"
done

# Kernel modules (already only the needed subset, with modules.dep etc.).
cp -a "$cache/lib/modules/$version" "$root/lib/modules/"

# The program under test and its shared libraries.
copy_program() {
name=$(basename "$binary")
cp "$binary" "$root/usr/local/bin/$name"
# SwiftPM resource bundles, if any, sit next to the executable.
for bundle in "$(dirname "$binary")"/*.resources; do
    [ -d "$bundle" ] && cp -a "$bundle" "$root/usr/local/bin/"
done
echo "/usr/local/bin/$name" >"$root/etc/tiltmaze-qemu/binary"

if [ -n "$sysroot" ]; then
    # The root's loader resolves as it will in the guest: qemu-user's prefix
    # makes its absolute paths (ld.so.cache, the libraries) the root's.
    ldd_out=$("$qemu_user" -L "$sysroot" "$sysroot/$loader" --list "$binary" 2>&1) || die "$loader --list $binary failed: $ldd_out"
else
    ldd_out=$(ldd "$binary" 2>&1) || die "ldd $binary failed: $ldd_out"
fi
if grep -q 'not found' <<<"$ldd_out"; then
    die "ldd cannot resolve every library of $binary:"$'\n'"$(grep 'not found' <<<"$ldd_out")"
fi
# Lines look like "libfoo.so.1 => /path/libfoo.so.1 (0x...)", "/lib64/ld-linux-x86-64.so.2 (0x...)"
# or "linux-vdso.so.1 (0x...)" (the kernel's, nothing to copy). The loader
# listing itself names its host path after "=>": its guest name comes first.
awk '$1 ~ /^\// { print $1; next } $2 == "=>" && $3 ~ /^\// { print $3 }' <<<"$ldd_out" | sort -u | while read -r lib; do
    mkdir -p "$root/$(dirname "$lib")"
    cp -L "$sysroot$lib" "$root/$lib"   # the file's contents under the name the loader looks for
done

# The root's loader cache: its Swift runtime is found through an ld.so.conf
# entry there, not through the program's RUNPATH (the cache names the same
# paths the libraries were just copied to).
if [ -n "$sysroot" ] && [ -f "$sysroot/etc/ld.so.cache" ]; then
    cp "$sysroot/etc/ld.so.cache" "$root/etc/ld.so.cache"
fi
}
[ "$binary" = - ] || copy_program

# Scenarios.
if [ -n "$extra" ]; then
    (cd "$extra" && tar -c --exclude=./host-prepare --exclude=./host-check .) | tar -x -C "$root/scenario"
fi

# init and helpers.
mkdir -p "$root/usr/local/lib/tiltmaze-qemu"
cp "$here"/guest/bin/* "$root/usr/local/bin/"
cp "$here"/guest/lib/* "$root/usr/local/lib/tiltmaze-qemu/"
if [ "$init" = systemd ]; then
    cp "$here/guest/init-systemd" "$root/init"
    cp "$here/guest/systemd/runner" "$here/guest/systemd/tiltmaze-qemu-runner.service" "$root/usr/local/lib/tiltmaze-qemu/"
    cp "$here/guest/systemd/request-reboot" "$root/usr/local/bin/"
    chmod 0755 "$root/usr/local/lib/tiltmaze-qemu/runner"
else
    cp "$here/guest/init" "$root/init"
fi
chmod 0755 "$root/init" "$root"/usr/local/bin/*

# A minimal /etc for programs that look up users or the host name.
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
echo 'tiltmaze-qemu' >"$root/etc/hostname"
echo "$version" >"$root/etc/tiltmaze-qemu/kernel"

# newc cpio (the format the kernel unpacks), every file owned by root. The
# name decides the compression: OUT.cpio.gz is gzip -1 (about 56 MB for a Swift
# debug build), OUT.cpio is not compressed (about 150 MB, but it boots about
# 1.5 s sooner: under TCG emulation the guest's decompression is slow, and the
# host saves the gzip time too; run.py uses this for its throw-away archive).
case "$out" in
    *.cpio.gz) compress=(gzip -1) ;;
    *.cpio) compress=(cat) ;;
    *) die "$out: the name must end in .cpio.gz or .cpio" ;;
esac
mkdir -p "$(dirname "$out")"
tmp_out="$out.tmp.$$"
trap 'rm -rf "$root" "$tmp_out"' EXIT
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | "$busybox" cpio -o -H newc -R 0:0 2>/dev/null) |
    "${compress[@]}" >"$tmp_out"
mv "$tmp_out" "$out"
