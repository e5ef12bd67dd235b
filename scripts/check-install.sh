#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# `make install DESTDIR=T` then `make uninstall DESTDIR=T` must leave T empty,
# and in between the installed program must run from its new place, its
# manual pages open with man, its completions name its commands, and its
# udev rules call the helper where it was installed. Run by `make test`.
# Each check's condition is in single quotes: check evaluates it (eval),
# where $bin, $root and the rest expand.
# shellcheck disable=SC2016
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$(mktemp -d /tmp/tiltmaze-install.XXXXXX) || exit 1
trap 'rm -rf "$root"' EXIT
failed=0
# Each check in a subshell without pipefail: `grep -q` ends its pipe early, and its writer's SIGPIPE is no failure.
check() { if ! (set +o pipefail; eval "$2"); then echo "check-install: $1" >&2; failed=1; fi; }

make --no-print-directory install DESTDIR="$root" >/tmp/tiltmaze-install.log 2>&1 ||
    { tail -20 /tmp/tiltmaze-install.log >&2; echo "check-install: make install failed" >&2; exit 1; }
bin=$root/usr/local/bin/tiltmaze
check "the installed binary does not print the version" '[[ $("$bin" --version) == "$(.build/debug/tiltmaze --version)" ]]'
check "the installed binary does not run doctor" '"$bin" doctor >/dev/null 2>&1 || [[ $? == 1 ]]'
# Its advice on permissions names the instructions it installed, never the
# source tree's udev/README.md, which an installed program's user does not have.
advice=$("$bin" doctor 2>&1)
check "doctor, installed, points to udev/README.md: $advice" '[[ $advice != *udev/README.md* ]]'
# (As root, its group line always gives the pointer.)
check "doctor, installed, names no installed udev.md: $advice" '[[ $(id -u) != 0 || $advice == *"$root/usr/local/share/doc/tiltmaze/udev.md"* ]] && [[ -s $root/usr/local/share/doc/tiltmaze/udev.md ]]'
check "the recording is not installed" '[[ -s $root/usr/local/share/tiltmaze/recordings/broad-21-fast-combined.csv && -s $root/usr/local/share/tiltmaze/recordings/LICENSE ]]'
# shellcheck disable=SC2034 # read by the checks' conditions (eval)
man1=$root/usr/local/share/man/man1
check "no manual page tiltmaze-play" 'MANWIDTH=80 man -l "$man1/tiltmaze-play.1.gz" 2>/dev/null | grep -q "tiltmaze play"'
check "tiltmaze.1 does not list the subcommands" 'MANWIDTH=80 man -l "$man1/tiltmaze.1.gz" 2>/dev/null | grep -q "calibrate"'
check "the bash completion does not know play" 'grep -q "play" "$root/usr/local/share/bash-completion/completions/tiltmaze"'
check "no zsh completion" '[[ -s $root/usr/local/share/zsh/site-functions/_tiltmaze ]]'
check "no fish completion" 'grep -q "^complete -c .tiltmaze" "$root/usr/local/share/fish/vendor_completions.d/tiltmaze.fish"'
check "the rules do not call the installed helper" 'grep -q "/usr/local/lib/tiltmaze/tiltmaze-sysfs-access" "$root/etc/udev/rules.d/70-tiltmaze.rules"'
check "the helper is not executable" '[[ -x $root/usr/local/lib/tiltmaze/tiltmaze-sysfs-access ]]'
count=$(find "$root" -type f | wc -l)
# A player's build never looks for the test-only umockdev (its warning on a machine without it).
# (Read whole first: grep -q stops early, and under pipefail the writer's SIGPIPE would fail the check.)
# shellcheck disable=SC2034 # read by the check's condition (eval)
player=$(TILTMAZE_PLAY_ONLY=1 swift package dump-package 2>/dev/null)
# shellcheck disable=SC2034 # read by the check's condition (eval)
full=$(swift package dump-package 2>/dev/null)
check "a player's manifest still names umockdev" '[[ -n $player && $player != *[Uu]mockdev* ]]'
check "the full manifest lost the tests" '[[ $full == *\"CUmockdev\"* ]]'


make --no-print-directory uninstall DESTDIR="$root" >>/tmp/tiltmaze-install.log 2>&1 ||
    { echo "check-install: make uninstall failed" >&2; exit 1; }
left=$(find "$root" -mindepth 1)
check "uninstall left: $left" '[[ -z $left ]]'
[[ $failed == 0 ]] || exit 1
echo "check-install: $count files installed under a temporary root and used from there; uninstall removed them all"
