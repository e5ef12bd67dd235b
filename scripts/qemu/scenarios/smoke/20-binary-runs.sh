# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The program under test and every shared library it needs load in the guest.
# (Swift programs read their arguments from /proc/self/cmdline: /proc must be
# mounted, which init does.)
set -eu
"$BINARY" --help > /tmp/help.txt
head -n 3 /tmp/help.txt
grep -q "^USAGE: tiltmaze" /tmp/help.txt
