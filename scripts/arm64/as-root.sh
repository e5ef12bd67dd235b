# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=bash
# Sourced by the arm64 tier's scripts, first thing: roots, mount namespaces
# and chroot are root's, so a script not run as root runs itself again
# under sudo (asked once, as the package installs do), keeping the
# variables that say where the roots are and whether this is CI.
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "arm64: $(basename "$0") needs root (chroot, mounts) and there is no sudo" >&2; exit 1; }
    exec sudo --preserve-env=TILTMAZE_ARM64_ROOT,CI "$0" "$@"
fi
