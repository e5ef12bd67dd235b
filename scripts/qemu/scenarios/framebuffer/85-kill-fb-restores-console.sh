# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# kill -9 while the game draws on the framebuffer: no handler runs, and the
# game's guard process puts the console back in text mode. host-check: after a
# `clear` the console has drawn over the game's last frame.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
. ./kill-lib
kill_game fb
