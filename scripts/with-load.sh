#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Runs a command while stress-ng keeps every CPU and the disk busy
# (`stress-ng --cpu 2 --io 1`: two workers spinning, one syncing the
# filesystem), and exits with the command's status. `make test` runs the
# Swift suite this way: a test that holds only on an idle machine is a flaky
# test, and CI machines are rarely idle.
#
#   scripts/with-load.sh swift test
set -uo pipefail
if ! command -v stress-ng >/dev/null; then
    echo "with-load: stress-ng is not installed (scripts/install-deps.sh test installs it: apt-get install stress-ng)" >&2
    exit 1
fi
# Its own process group, so that one signal ends the workers it forks too.
setsid stress-ng --cpu 2 --io 1 --timeout 3h --quiet &
load=$!
trap 'kill -TERM -- -"$load" 2>/dev/null; wait "$load" 2>/dev/null' EXIT
sleep 1
if ! kill -0 "$load" 2>/dev/null; then
    echo "with-load: stress-ng did not start" >&2
    exit 1
fi
echo "with-load: stress-ng --cpu 2 --io 1 running beside: $*" >&2
"$@"
