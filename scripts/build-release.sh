#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# The release build that `make install` and `make deb` ship, in a build
# directory of its own (.build/static) so that it and `make play`'s build
# never undo each other. Swift's runtime and FoundationEssentials are linked
# in (--static-swift-stdlib): the installed program needs no toolchain on the
# machine, and a package depends on none.
#
# The manual pages are made from the built program's own command definitions
# by swift-argument-parser's generate-manual (the tool behind its plugin,
# built here with the same flags so that nothing is built twice), one page
# per command, into .build/static/manuals.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export TILTMAZE_PLAY_ONLY=1
build=.build/static
# The system linker warns that FoundationEssentials' static library refers to
# mktemp(3). That is Swift's own library code, the same in a dynamic build,
# where the linker does not see it; the one known line is dropped and every
# other line passes through.
quiet() { grep -v "warning: the use of .mktemp. is dangerous"; return 0; }

for product in tiltmaze generate-manual; do
    # SWIFT_BUILD_FLAGS (from make): --jobs 1 on a board short of memory.
    # shellcheck disable=SC2086
    swift build -c release --no-color-diagnostics --product "$product" --scratch-path "$build" --static-swift-stdlib ${SWIFT_BUILD_FLAGS:-} 2>&1 | quiet
    status=${PIPESTATUS[0]}
    [[ $status == 0 ]] || exit "$status"
done
# Pages carry a date: the last commit's, so a rebuild of the same tree makes the same pages.
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
rm -rf "$build/manuals.tmp" && mkdir -p "$build/manuals.tmp"
"$build/release/generate-manual" "$build/release/tiltmaze" --multi-page --date "$date" \
    --authors "the TiltMaze developers" --output-directory "$build/manuals.tmp" >/dev/null || exit 1
rm -rf "$build/manuals" && mv "$build/manuals.tmp" "$build/manuals"
