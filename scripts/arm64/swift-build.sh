#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# `swift build ARGS…` for aarch64-unknown-linux-gnu, run natively in the
# toolchain root with the tier's Swift SDK into .build-arm64. pkg-config
# reads the target's .pc files, their paths put under the sysroot. The
# SDK's flags make SwiftPM warn about -pthread on every target: that one
# line is dropped, everything else passes through.
set -euo pipefail
. "$(dirname "$0")/as-root.sh"
cd "$(dirname "$0")/../.."
scripts/arm64/run-in.sh toolchain env PKG_CONFIG_SYSROOT_DIR=/sysroot \
    PKG_CONFIG_PATH=/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot/usr/share/pkgconfig \
    swift build --swift-sdks-path /sdk --swift-sdk tiltmaze-arm64 --scratch-path .build-arm64 "$@" 2>&1 |
    grep -v "warning: prohibited flag(s): -pthread"
exit "${PIPESTATUS[0]}"
