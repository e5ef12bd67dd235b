#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Makes, or reuses, what the arm64 tier builds and runs in, under
# TILTMAZE_ARM64_ROOT (default /var/cache/tiltmaze/arm64-root), outside the
# clone so that a machine pays for it once:
#
#   target/     Debian trixie for arm64, as Raspberry Pi OS is (glibc 2.41):
#               the libraries TiltMaze links and its tests use, run under
#               qemu-user through binfmt_misc; the sysroot of the cross build.
#               Swift 6.2.3's arm64 libraries and modules (Debian sid's
#               swiftlang, unpacked, not installed: trixie's own 6.0.3 cannot
#               build swift-system) sit in /opt/swift-6.2.3, the runtime on
#               the loader's path.
#   toolchain/  Debian sid for amd64 with its swiftlang 6.2.3, the same
#               version: a compiler reads only its own version's modules. It
#               compiles for aarch64 at native speed (sdk/: the Swift SDK).
#
# `roots.sh --check` checks what making them needs, and makes nothing.
# Remade, saying so, when the package lists or the Swift version below change
# (the stamp file holds their digest). Fails, naming the cause, when a root
# cannot be made: the tier never passes without running.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
base=${TILTMAZE_ARM64_ROOT:-/var/cache/tiltmaze/arm64-root}
swift_version=6.2.3
mirror=http://deb.debian.org/debian
# The cross build's sysroot and the tests' world: build libraries, umockdev,
# tmux (the terminal tests), procps (their pkill), iiod (--iio-uri), python3;
# the arm64 package's: dpkg-dev (dpkg-shlibdeps reads Depends here), man-db,
# passwd and acl (its install is checked here); busybox-static (the arm64 qemu guest).
target_packages=(libc6-dev libstdc++-14-dev libgcc-14-dev linux-libc-dev pkg-config
    libiio-dev libevdev-dev libpng-dev libdrm-dev libumockdev-dev umockdev
    python3 tmux procps iiod dpkg-dev man-db passwd acl busybox-static)
toolchain_packages=(swiftlang libc6-dev libstdc++-15-dev git ca-certificates pkg-config)

say() { echo "arm64: $*" >&2; }
fail() { echo "arm64: $*" >&2; exit 1; }

# What making the roots and running in them needs on this machine, checked on
# every run, a reuse too: a machine whose roots were made before a package
# joined the list must fail (or install it) as a fresh one does, not pass on
# the strength of its cache.
"$top/scripts/install-deps.sh" arm64
# qemu-user runs the arm64 programs; the kernel finds it through binfmt_misc.
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    [ "$(id -u)" = 0 ] || fail "binfmt_misc is not mounted, and mounting it needs root: sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc"
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || fail "cannot mount binfmt_misc: arm64 programs cannot be run here"
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || fail "qemu-aarch64 is not registered with binfmt_misc (qemu-user-static, binfmt-support)"

# --check: only what a reuse checks, then mmdebstrap's own checks for a
# foreign architecture (--simulate), without making anything
# (scripts/fresh-machine.sh runs it in a fresh Debian root).
if [ "${1:-}" = --check ]; then
    mmdebstrap --quiet --simulate --arch=arm64 --variant=apt --include="$(IFS=,; echo "${target_packages[*]}")" \
        trixie /tmp/tiltmaze-arm64-check "$mirror" >/dev/null || fail "mmdebstrap cannot start the trixie arm64 root"
    say "ready to make the arm64 root"
    exit 0
fi

stamp=$( (echo "$swift_version"; echo "${target_packages[*]}"; echo "${toolchain_packages[*]}"; sha256sum "$0" "$top/scripts/arm64/swift-sdk.sh" | cut -d' ' -f1) | sha256sum | cut -d' ' -f1)
if [ -f "$base/stamp" ] && [ "$(cat "$base/stamp")" = "$stamp" ] && [ -d "$base/target/usr" ] && [ -d "$base/toolchain/usr" ]; then
    say "reusing the roots in $base"
else
    if [ -f "$base/stamp" ]; then
        say "the roots in $base were made from other package lists: making them again (about 10 minutes)"
    else
        say "making the roots in $base (about 10 minutes; later runs reuse them)"
    fi
    [ "$(id -u)" = 0 ] || fail "making the roots needs root (mmdebstrap, binfmt_misc, chroot): run as root or with sudo"

    started=$SECONDS
    new=$base.new
    rm -rf "$new"
    mkdir -p "$new"
    join() { local IFS=,; echo "$*"; }
    say "target: Debian trixie arm64 (the maintainer scripts run emulated)"
    mmdebstrap --quiet --arch=arm64 --variant=apt --include="$(join "${target_packages[@]}")" \
        trixie "$new/target" "$mirror" >&2 || fail "mmdebstrap could not make the trixie arm64 root from $mirror"
    say "toolchain: Debian sid amd64 with swiftlang $swift_version"
    # The sid Release file served here is past its Valid-Until date.
    mmdebstrap --quiet --arch=amd64 --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
        --include="$(join "${toolchain_packages[@]}")" sid "$new/toolchain" "$mirror" >&2 \
        || fail "mmdebstrap could not make the sid amd64 root with swiftlang from $mirror"
    # shellcheck disable=SC2016 # ${Version} is dpkg-query's field, not the shell's
    got=$(chroot "$new/toolchain" dpkg-query -W -f='${Version}' swiftlang)
    [[ $got == "$swift_version"-* ]] || fail "sid's swiftlang is $got, not $swift_version: change swift_version in $0 (the tier builds with the compiler it names)"

    say "Swift $swift_version for arm64: sid's swiftlang and libswiftlang, unpacked into the target"
    downloads=$new/toolchain/tmp/arm64-swift
    mkdir -p "$downloads"
    cp /etc/resolv.conf "$new/toolchain/etc/resolv.conf" 2>/dev/null || true
    chroot "$new/toolchain" sh -ec "dpkg --add-architecture arm64; apt-get -qq -o Acquire::Check-Valid-Until=false update; cd /tmp/arm64-swift; apt-get -qq download swiftlang:arm64=$got libswiftlang:arm64=$got" >&2 \
        || fail "cannot download sid's swiftlang $got for arm64"
    unpacked=$new/arm64-swift
    for deb in "$downloads"/*.deb; do dpkg-deb -x "$deb" "$unpacked"; done
    lib=$new/target/opt/swift-$swift_version/usr/libexec/swift/lib
    mkdir -p "$lib"
    cp -a "$unpacked/usr/libexec/swift/lib/swift" "$unpacked/usr/libexec/swift/lib/swift_static" "$unpacked/usr/libexec/swift/lib/clang" "$lib/"
    rm -rf "$lib/swift/host" "$unpacked" "$downloads"
    # Where the compiler and linker look, relative so that they resolve
    # inside the toolchain root too, where the target is /sysroot.
    ln -sfn "../../opt/swift-$swift_version/usr/libexec/swift/lib/swift" "$new/target/usr/lib/swift"
    ln -sfn "../../opt/swift-$swift_version/usr/libexec/swift/lib/swift_static" "$new/target/usr/lib/swift_static"
    echo /usr/lib/swift/linux > "$new/target/etc/ld.so.conf.d/swift-$swift_version.conf"
    chroot "$new/target" ldconfig
    "$top/scripts/arm64/swift-sdk.sh" "$new/toolchain/sdk" "$swift_version"

    echo "$stamp" > "$new/stamp"
    rm -rf "$base.old"
    [ -d "$base" ] && mv "$base" "$base.old"
    mv "$new" "$base"
    rm -rf "$base.old"
    say "roots ready in $base after $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
fi
