#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Builds the LinuxMotion library's DocC catalogue (swift-docc-plugin) and
# fails on any warning (a broken symbol link, an undocumented parameter) and
# on any public symbol of the library without a summary. Run by `make test`.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp /tmp/tiltmaze-docs.XXXXXX) || exit 1
trap 'rm -f "$log"' EXIT
swift package generate-documentation --target LinuxMotion --warnings-as-errors \
    --experimental-documentation-coverage --coverage-summary-level detailed >"$log" 2>&1
status=$?
if [[ $status != 0 ]]; then
    grep -E "^(error|warning)|-->" "$log" >&2 || tail -30 "$log" >&2
    echo "check-docs: the LinuxMotion documentation has warnings or errors (above)" >&2
    exit 1
fi
# The coverage table: name | kind | has abstract | …; operators, the
# Equatable groups and extended types carry no summary of ours.
undocumented=$(awk -F'|' 'NF > 7 && $3 ~ /false/ && $2 !~ /Operator|CollectionGroup|Extended|Article/ { print "  " $1 "(" $2 ")" }' "$log" | sed 's/  *(/ (/; s/ *)$/)/')
if [[ -n $undocumented ]]; then
    echo "check-docs: public symbols of LinuxMotion without a summary:" >&2
    echo "$undocumented" >&2
    exit 1
fi
echo "check-docs: LinuxMotion's documentation builds without warnings; every public symbol has a summary"
