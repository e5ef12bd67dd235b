#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# `make test`: every tier, each timed (scripts/timed.sh), the times listed
# again at the end. On two cores most of the wall time is emulation, and
# much of it runs on one core: the arm64 tier's Debian roots are made beside
# the suite (downloads and unpacking, on a machine that has none yet), and
# once everything is built, the kernel tiers and the arm64 tier's emulated
# runs go in two lanes side by side, each line of theirs marked with its
# lane. A lane that fails still lets the other finish, so one run shows
# every failure; the run then fails.
#
# Where each tier's time goes, and what moved where, is in docs/tests.md.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
make=${MAKE:-make}
TIMED=scripts/timed.sh
mkdir -p .build && : >.build/test-times.txt
export TILTMAZE_TIMES=$top/.build/test-times.txt
started=$SECONDS
x86=false
[ "$(uname -m)" = x86_64 ] && x86=true

say() { echo "make test: $*" >&2; }
failed=()
# A tier that fails ends the run at once, except inside the lanes.
step() { "$TIMED" "$@" || { failed+=("$1"); finish; }; }

background=()
finish() {
    local pid
    for pid in "${background[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
    wait 2>/dev/null
    echo "make test: the time each step took:"
    cat .build/test-times.txt
    printf 'make test: %d min %02d s in all\n' $(( (SECONDS - started) / 60 )) $(( (SECONDS - started) % 60 ))
    if [ ${#failed[@]} -gt 0 ]; then
        say "FAILED: ${failed[*]}"
        exit 1
    fi
    echo "make test: every tier passed"
    exit 0
}
trap 'failed+=(interrupted); finish' INT TERM

step build "$make" --no-print-directory build
python3 scripts/check-module-layers.py || { failed+=(layers); finish; }
python3 scripts/check-deb.py --static || { failed+=(deb-static); finish; }
scripts/check-shell.sh || { failed+=(shellcheck); finish; }

roots_log=.build/arm64-roots.log
if $x86; then
    # Its packages first, here: apt-get must not run beside the suite's.
    scripts/install-deps.sh arm64 || { failed+=(deps-arm64); finish; }
    # Its own process group (setsid), so that a failed run ends it whole.
    say "making or checking the arm64 tier's roots beside the suite (log: $roots_log)"
    setsid scripts/arm64/roots.sh >"$roots_log" 2>&1 &
    roots=$!
    background+=("$roots")
fi

# The tests are built first, so that the load is beside the tests, not
# beside the compiler (which it only slowed).
step build-tests swift build --build-tests
step suite scripts/with-load.sh swift test --skip-build
step test-library "$make" --no-print-directory test-library
step test-install "$make" --no-print-directory test-install
step test-deb "$make" --no-print-directory test-deb

if $x86; then
    # Waited for here, not through timed.sh: only this shell can wait for
    # its child. The time is the wait's, what the roots cost beyond the
    # steps above (their own log says how long they took in all).
    waited=$SECONDS
    wait "$roots"
    status=$?
    background=()
    cat "$roots_log" >&2
    took=$((SECONDS - waited))
    verdict=passed
    [ "$status" = 0 ] || verdict="FAILED (exit $status)"
    line=$(printf '%-16s %s in %d min %02d s' arm64-roots "$verdict (waited for)" $((took / 60)) $((took % 60)))
    echo "time: $line" >&2
    echo "$line" >>"$TILTMAZE_TIMES"
    [ "$status" = 0 ] || { failed+=(arm64-roots); finish; }
fi
# After the roots: both register binfmt handlers on this machine's kernel.
step test-fresh "$make" --no-print-directory test-fresh

if ! $x86; then
    # A Pi: swift test above ran the suite natively; the qemu and arm64 tiers
    # need an x86_64 host and say so.
    "$make" --no-print-directory test-arm64 test-qemu || failed+=(arm64-or-qemu)
    step test-tsan "$make" --no-print-directory test-tsan
    step bench-smoke "$make" --no-print-directory bench-smoke
    finish
fi

step arm64-build scripts/arm64/swift-build.sh --build-tests
step arm64-release scripts/arm64/release.sh

# lane NAME COMMANDS…: runs a lane's steps in order, each line it prints
# marked with the lane's name; its status is the first failure's.
lane() {
    local name=$1; shift
    (
        status=0
        for command in "$@"; do
            eval "$command" || { status=1; echo "lane $name: FAILED: $command"; }
        done
        exit "$status"
    ) 2>&1 | sed -u "s/^/$name | /"
    return "${PIPESTATUS[0]}"
}
say "two lanes from here: kernel (the x86 kernel tiers, then ThreadSanitizer and the benchmarks) and arm64 (its emulated suite, package, same answers and kernel tier)"
lane kernel "$TIMED test-qemu $make --no-print-directory run-qemu" \
    "$TIMED test-tsan $make --no-print-directory test-tsan" \
    "$TIMED bench-smoke $make --no-print-directory bench-smoke" &
kernel=$!
lane arm64 "$TIMED arm64-suite scripts/arm64/test.sh" \
    "$TIMED arm64-deb python3 scripts/check-deb.py --arch arm64" \
    "$TIMED arm64-answers $make --no-print-directory arm64-answers" \
    "$TIMED arm64-qemu $make --no-print-directory run-qemu-arm64" &
arm64=$!
wait "$kernel" || failed+=("the kernel lane")
wait "$arm64" || failed+=("the arm64 lane")
finish
