#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# The arm64 release program that `make deb-arm64` packages, as `make release`
# makes the amd64 one: Swift's runtime and FoundationEssentials linked in
# (--static-swift-stdlib), so a Pi needs no Swift to run it. Cross-built
# natively in the toolchain root against the trixie arm64 root (so its glibc
# symbols are trixie's, which Raspberry Pi OS has); the manual pages are
# made by running the built program's own generate-manual, emulated, in the
# target root.
#
#   .build-arm64/aarch64-unknown-linux-gnu/release/tiltmaze
#   .build-arm64/manuals/
set -euo pipefail
. "$(dirname "$0")/as-root.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
scratch=.build-arm64
release=$scratch/aarch64-unknown-linux-gnu/release
"$top/scripts/arm64/roots.sh"

echo "arm64: building the release program for aarch64 (static Swift runtime)" >&2
# As scripts/build-release.sh: the one known linker warning about
# FoundationEssentials' use of mktemp(3) is Swift's own library code.
for product in tiltmaze generate-manual; do
    TILTMAZE_PLAY_ONLY=1 scripts/arm64/swift-build.sh -c release --product "$product" --static-swift-stdlib |
        grep -v "warning: the use of .mktemp. is dangerous"
    [ "${PIPESTATUS[0]}" = 0 ] || { echo "arm64: the release build of $product failed" >&2; exit 1; }
done
file "$release/tiltmaze" | grep -q "ARM aarch64" || { echo "arm64: $release/tiltmaze is not an aarch64 program" >&2; exit 1; }

date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
rm -rf "$scratch/manuals.tmp" && mkdir -p "$scratch/manuals.tmp"
scripts/arm64/run-in.sh target "$release/generate-manual" "$release/tiltmaze" --multi-page --date "$date" \
    --authors "the TiltMaze developers" --output-directory "$scratch/manuals.tmp" >/dev/null ||
    { echo "arm64: generate-manual failed" >&2; exit 1; }
rm -rf "$scratch/manuals" && mv "$scratch/manuals.tmp" "$scratch/manuals"
echo "arm64: $release/tiltmaze and its manual pages in $scratch/manuals" >&2
