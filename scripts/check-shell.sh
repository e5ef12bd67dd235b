#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Runs shellcheck over every shell script of the tree: an unquoted variable, a
# cd that may fail or an `a && b || c` that runs c when b fails is found
# here, not in a qemu guest, a package's maintainer script or a CI run.
# Every finding fails; one that is meant is written down where it is, as a
# `# shellcheck disable=SCxxxx` directive with its reason. Run by make check
# and make test (make shellcheck alone).
#
# The scripts are found, not listed, so that a new one is checked without
# editing anything: every file git knows of (tracked, or new and not
# ignored) that is named *.sh, starts with a #! line naming sh or bash, or
# carries a `# shellcheck shell=` directive; and the shell files without a
# #! line in the qemu tier's known places: guest/lib (sourced by the
# scenarios and helpers) and the scenarios' *-lib files (sourced by them).
# A script without a #! line names its shell with that directive at its
# top (shellcheck then knows what to check it as; without one it says so):
# the scenarios, scripts/qemu/scenarios/*/*.sh, are run by guest/init with
# busybox sh, those of scenarios/systemd by the systemd guest's runner
# with bash, and this checks that each says which. Settings common to all
# are in .shellcheckrc.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v shellcheck >/dev/null 2>&1; then
    echo "check-shell: shellcheck not found: install shellcheck: scripts/install-deps.sh test" >&2
    exit 1
fi
if ! said=$(git rev-parse --is-inside-work-tree 2>&1 >/dev/null); then
    echo "check-shell: the scripts are found with git ls-files, and git says of $(pwd): $said" >&2
    exit 1
fi

# is_shell FILE: FILE is a shell script by its name, its #! line or a directive.
is_shell() {
    case "$1" in
        *.sh | scripts/qemu/guest/lib/* | scripts/qemu/scenarios/*/*-lib) return 0 ;;
    esac
    local first
    IFS= read -r first <"$1" || [ -n "$first" ] || return 1
    [[ $first =~ ^#!.*[/[:space:]](ba|da|a)?sh([[:space:]]|$) ]] && return 0
    grep -q '^# shellcheck .*shell=' < <(head -n 10 "$1")
}

scripts=()
while IFS= read -r -d '' f; do
    # Listed by git but deleted here, or a link (its target is checked itself).
    if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
    if is_shell "$f"; then scripts+=("$f"); fi
done < <(git ls-files -z --cached --others --exclude-standard | sort -zu)
[ ${#scripts[@]} -gt 0 ] || { echo "check-shell: found no shell scripts" >&2; exit 1; }

# Which shell each scenario says it runs under, against the one that runs it.
wrong=()
for f in "${scripts[@]}"; do
    case "$f" in
        scripts/qemu/scenarios/systemd/*.sh) want="bash" runner="the systemd guest's runner runs it with bash" ;;
        scripts/qemu/scenarios/*/*.sh) want="sh" runner="guest/init runs it with busybox sh" ;;
        *) continue ;;
    esac
    grep -Eq "^# shellcheck .*shell=$want( |$)" < <(head -n 10 "$f") ||
        wrong+=("$f: its first lines must say '# shellcheck shell=$want' ($runner)")
done

status=0
findings=$(shellcheck --format=gcc "${scripts[@]}") || status=$?
if [ -n "$findings" ]; then
    echo "$findings" >&2
    count=$(grep -c . <<<"$findings")
    files=$(cut -d: -f1 <<<"$findings" | sort -u | wc -l)
    echo "check-shell: FAILED: $count findings in $files of the ${#scripts[@]} shell scripts (above): fix each," \
        "or write why it is meant beside it (# shellcheck disable=SCxxxx, with the reason)" >&2
elif [ "$status" != 0 ]; then
    echo "check-shell: FAILED: shellcheck ended with status $status" >&2
fi
if [ ${#wrong[@]} -gt 0 ]; then
    printf 'check-shell: FAILED: %s\n' "${wrong[@]}" >&2
    status=1
fi
[ "$status" = 0 ] || exit 1
echo "check-shell: ${#scripts[@]} shell scripts, no findings ($(shellcheck --version | sed -n 's/^version: /shellcheck /p'))"
