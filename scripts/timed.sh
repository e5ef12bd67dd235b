#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Runs one step of `make test` and says how long it took, so that a CI log
# shows where its minutes go. Each line is also kept in .build/test-times.txt
# (reset by `make test`), which `make test` prints again at its end.
#
#   scripts/timed.sh suite scripts/with-load.sh swift test
set -uo pipefail
name=$1; shift
log=${TILTMAZE_TIMES:-.build/test-times.txt}
mkdir -p "$(dirname "$log")"
start=$(date +%s)
"$@"
status=$?
took=$(( $(date +%s) - start ))
if [ "$status" = 0 ]; then verdict="passed"; else verdict="FAILED (exit $status)"; fi
line=$(printf '%-16s %s in %d min %02d s' "$name" "$verdict" $((took / 60)) $((took % 60)))
echo "time: $line" >&2
echo "$line" >>"$log"
exit "$status"
