#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# make test-arm64: TiltMaze and its tests built for aarch64-unknown-linux-gnu
# and the whole Swift test suite run on aarch64, emulated, as on x86 (the
# umockdev and unprivileged reruns included). The compile runs natively in
# the toolchain root (Swift 6.2.3 for amd64, cross-building against the
# trixie arm64 root); only the tests run under qemu-user, in the target root.
#
# A test that cannot run under qemu-user is disabled there by name with its
# reason (Tests/TestSupport/Emulation.swift); Swift Testing prints each as
# skipped, with the reason, and this script lists them again at the end.
set -euo pipefail
. "$(dirname "$0")/as-root.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
scratch=.build-arm64
triple=aarch64-unknown-linux-gnu
"$top/scripts/arm64/roots.sh"

echo "arm64: building TiltMaze and its tests for $triple (Swift 6.2.3, natively)" >&2
scripts/arm64/swift-build.sh --build-tests || { echo "arm64: the build failed" >&2; exit 1; }
file "$scratch/$triple/debug/tiltmaze" | grep -q "ARM aarch64" || { echo "arm64: $scratch/$triple/debug/tiltmaze is not an aarch64 program" >&2; exit 1; }

# The tests of pure computation are not run emulated: the game's rules and
# physics, the motion maths, the pictures. Swift gives them the same bits on
# both architectures, and same-answers.py holds the whole program's outputs
# to that, byte for byte: every campaign level played headless, the BROAD
# windows fused, every level drawn in two pixel formats (docs/tests.md has
# which suite went where). Kept of those modules: what meets the machine
# (threads, files, terminals). TILTMAZE_ARM64_WHOLE_SUITE=1 runs them all.
pure='^(GameTests\.(?!PhysicsLoopTests|ProgressStoreTests|LevelFolderTests)|MotionCoreTests\.(?!RecordingTests)|RenderTests\.(?!TerminalSessionTests))'
skip=(--skip "$pure")
[ "${TILTMAZE_ARM64_WHOLE_SUITE:-}" = 1 ] && skip=()
echo "arm64: running the Swift test suite on aarch64 under qemu-user${skip:+, less the pure computation ($pure)}" >&2
log=$scratch/test-arm64.log
# A bound for a hang: the run took 11 to 16 min here beside the other lane.
# Reached, the run is ended and the last tests to start are named below,
# instead of CI's own limit ending make test with nothing said.
limit=${TILTMAZE_ARM64_SUITE_TIMEOUT:-2400}
# The exit tests' children trap on purpose; qemu-user would write each one's
# core (qemu_*.core) into the clone.
ulimit -c 0
set +e
timeout --kill-after=30 "$limit" scripts/arm64/run-in.sh target env TILTMAZE_QEMU_USER=1 \
    "$scratch/$triple/debug/TiltMazePackageTests.xctest" --testing-library swift-testing "${skip[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# Leftovers of a failed run must not outlive it.
pkill -f "aarch64-binfmt-P /usr/bin/tmux -L tiltmaze-test" 2>/dev/null || true
echo "arm64: not run under qemu-user, by name and reason:" >&2
# Swift Testing colours its lines even into a pipe: read them without the escapes.
plain() { sed 's/\x1b\[[0-9;]*m//g' "$log"; }
plain | grep -E "^➜ Test .* skipped.*qemu-user" | sed 's/^/  /' >&2 || echo "  none" >&2
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    # Swift 6.2's runner prints no line for a test that passed, so which
    # tests hung is not known; the newest to start are the likeliest.
    echo "arm64: the suite did not end within $limit s (TILTMAZE_ARM64_SUITE_TIMEOUT); the last tests to start were:" >&2
    plain | grep -E "^. Test .* started" | tail -15 | sed 's/^/  /' >&2
fi
summary=$(plain | grep -E "^. Test run with [0-9]+ tests" | tail -1)
echo "arm64: ${summary:-no summary line: the run did not finish}" >&2
exit "$status"
