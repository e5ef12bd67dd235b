#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Runs a command inside one of the arm64 tier's roots, in a mount namespace
# of its own, so that nothing it mounts outlives it:
#
#   scripts/arm64/run-in.sh toolchain CMD...   # Debian sid amd64 with Swift 6.2.3; the target root at /sysroot
#   scripts/arm64/run-in.sh target CMD...      # Debian trixie arm64 (emulated by qemu-user through binfmt_misc)
#
# Both see the work tree at its own path (tests find fixtures by their source
# paths), /proc, /dev and a private /tmp; the toolchain also sees the Swift
# package copies git is pointed at (/etc/gitconfig's url.insteadOf), read-only.
# TILTMAZE_ARM64_ROOT: where the roots are (scripts/arm64/roots.sh).
set -euo pipefail
. "$(dirname "$0")/as-root.sh"
which=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
base=${TILTMAZE_ARM64_ROOT:-/var/cache/tiltmaze/arm64-root}
root=$base/$which
[ -d "$root/usr" ] || { echo "arm64: no $which root at $root: make it with scripts/arm64/roots.sh" >&2; exit 1; }
export TILTMAZE_TOP=$top TILTMAZE_ROOT=$root TILTMAZE_TARGET=$base/target TILTMAZE_WHICH=$which
# shellcheck disable=SC2016 # the inner script's variables are its own: the environment exported above
exec unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    mount -t proc proc "$TILTMAZE_ROOT/proc"
    mount --rbind /dev "$TILTMAZE_ROOT/dev"
    mount -t tmpfs tmpfs "$TILTMAZE_ROOT/tmp"
    mkdir -p "$TILTMAZE_ROOT$TILTMAZE_TOP"
    mount --bind "$TILTMAZE_TOP" "$TILTMAZE_ROOT$TILTMAZE_TOP"
    if [ "$TILTMAZE_WHICH" = toolchain ]; then
        mkdir -p "$TILTMAZE_ROOT/sysroot" "$TILTMAZE_ROOT/opt/swift-packages"
        mount --bind "$TILTMAZE_TARGET" "$TILTMAZE_ROOT/sysroot"
        if [ -d /opt/swift-packages ]; then
            mount --bind -o ro /opt/swift-packages "$TILTMAZE_ROOT/opt/swift-packages"
            cp /etc/gitconfig "$TILTMAZE_ROOT/etc/gitconfig" 2>/dev/null || true
        fi
    fi
    cd "$TILTMAZE_ROOT$TILTMAZE_TOP"
    exec chroot "$TILTMAZE_ROOT" /usr/bin/env -C "$TILTMAZE_TOP" HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin "$@"
' bash "$@"
