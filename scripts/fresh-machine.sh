#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# The install path from nothing, as a new machine meets it: a throwaway Debian 12
# root made with mmdebstrap, holding only what swift.org's instructions have a
# Swift user install beside the toolchain; this machine's toolchain (and the
# Swift package copies its git configuration points at) bind-mounted in. Inside,
# as root, in a copy of this clone:
#
#   1. scripts/install-deps.sh test    what `make test` installs first; then
#      scripts/qemu/pngread.py must find pypng (python3-png) in Debian's python3
#   2. scripts/install-deps.sh arm64   what the arm64 tier's roots need
#   3. the start of the arm64 root: scripts/arm64/roots.sh --check (binfmt_misc
#      and qemu-aarch64 as a reuse checks them, then mmdebstrap --simulate for
#      arm64, which refuses a foreign architecture when a package it needs is
#      missing, as it did without arch-test)
#   4. swift build --product tiltmaze  a player's first build
#
# Nothing of this machine's caches (/var/cache/tiltmaze, .build/) is seen: a
# missing install step fails here even where CI's cached machine passes.
# Needs root (mmdebstrap, chroot, mounts) and Debian's archive; about 6 minutes.
#
#   scripts/fresh-machine.sh [ROOT]   ROOT defaults to a new directory under /tmp, removed after
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "fresh-machine: $*" >&2; }
fail() { say "$*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (mmdebstrap, chroot, bind mounts): run it with sudo"
swift=$(command -v swift) || fail "no swift on PATH: the fresh root borrows this machine's toolchain"
toolchain=$(cd "$(dirname "$(readlink -f "$swift")")/../.." && pwd)   # /opt/swift for /opt/swift/usr/bin/swift
"$top/scripts/install-deps.sh" fresh

root=${1:-$(mktemp -d /tmp/tiltmaze-fresh.XXXXXX)}
mounts=()
leave() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
    [ -n "${1:-}" ] || rm -rf "$root"
}
trap 'leave' EXIT
bind() { mkdir -p "$root$2"; mount --bind "$1" "$root$2"; mounts+=("$root$2"); }

started=$SECONDS
# What swift.org lists for Debian 12 beside the toolchain, and sudo and git as a person has them.
swift_user=(binutils-gold libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev libncurses-dev libpython3-dev
    libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev ca-certificates make sudo)
join() { local IFS=,; echo "$*"; }
say "a Debian 12 root in $root"
mmdebstrap --quiet --variant=minbase --include="$(join "${swift_user[@]}")" bookworm "$root" http://deb.debian.org/debian >&2 \
    || fail "mmdebstrap could not make the Debian 12 root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/src"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bind /sys /sys
bind /dev /dev
bind /dev/pts /dev/pts
bind "$toolchain" "$toolchain"
if [ -f /etc/gitconfig ]; then
    cp /etc/gitconfig "$root/etc/gitconfig"
    # The package copies git is pointed at (insteadOf), if any.
    for copy in $(git config --system --get-regexp 'url\..*\.insteadof' 2>/dev/null | sed -n 's/^url\.\([^ ]*\)\.insteadof .*/\1/p' | sort -u); do
        [ -d "$copy" ] && bind "$copy" "${copy%/}"
    done
fi
git -C "$top" ls-files -z | (cd "$top" && cpio --null -pdm --quiet "$root/src")

inside() { chroot "$root" env -i PATH="$toolchain/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root LANG=C.UTF-8 bash -c "cd /src && $1"; }
say "install-deps.sh test"
inside "scripts/install-deps.sh test" || fail "scripts/install-deps.sh test failed in a fresh Debian 12 root"
say "the qemu tier's PNG reader imports (pypng, python3-png)"
inside "python3 -B scripts/qemu/pngread.py" || fail "scripts/qemu/pngread.py finds no pypng in a fresh Debian 12 root after install-deps.sh test"
say "install-deps.sh arm64"
inside "scripts/install-deps.sh arm64" || fail "scripts/install-deps.sh arm64 failed in a fresh Debian 12 root"
say "the start of the arm64 root (scripts/arm64/roots.sh --check)"
inside "scripts/arm64/roots.sh --check" \
    || fail "the arm64 root cannot be started in a fresh Debian 12 root with what install-deps.sh arm64 installs"
say "swift build --product tiltmaze (a player's first build)"
inside "TILTMAZE_PLAY_ONLY=1 swift build --product tiltmaze >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }" \
    || fail "a first build failed in a fresh Debian 12 root"
say "passed in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
