# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# kill -9 while the game holds the console through KMS: no handler runs, so
# the kernel gives the display back (the DRM card's last close) and the
# game's guard process puts the console back in text mode. host-check: after
# a `clear` the screen is the console's, cleared, not the game's frame.
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib
. ./kill-lib
kill_game kms
