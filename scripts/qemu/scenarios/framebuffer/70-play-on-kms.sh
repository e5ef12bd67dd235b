# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# shellcheck shell=sh
# The game through KMS on bochs (--display kms): two dumb buffers flipped at
# the vertical blank. Its frame must equal the opening frame `tiltmaze
# snapshot` draws at the mode's size (host-check; bochs's preferred mode is
# the fbdev's 1280x800). While it plays the console is in graphics mode;
# switching away (chvt 2) shows the text console, and the game, which let
# DRM master go, takes it back and redraws on return (chvt 1); after SIGTERM
# the console is in text mode and shown again, not the game's last frame.
# DRM master is checked in the kernel's client list (drm-master): held while
# playing, dropped when switched away, taken back on return.
# wait_for's conditions are in single quotes: it evaluates them afresh each time.
# shellcheck disable=SC2016
set -eu
# shellcheck source=../../guest/lib/scenario-lib # initramfs.sh installs it there
. /usr/local/lib/tiltmaze-qemu/scenario-lib

[ -e /dev/dri/card0 ] || { modprobe bochs; wait-for /dev/dri/card0; }
game=$(start-game --display kms --source sim --level /scenario/still.txt)
# The mode is set on a black buffer at once; the first frame follows with the
# first flip (seconds later for the emulated debug build).
wait-kms-flip
tty1_mode_is graphics || { echo "tty1 is not in graphics mode while tiltmaze plays on KMS"; exit 1; }
screendump --like expected-play-bochs 34 play-kms
[ "$(drm-master tiltmaze)" = y ] || { echo "tiltmaze does not hold DRM master while it plays"; exit 1; }
chvt 2
# chvt returns once the game let the console go: it must have dropped master
# first, so the console (or a program on it) can set its own mode.
[ "$(drm-master tiltmaze)" = n ] || { echo "tiltmaze kept DRM master after the switch away"; exit 1; }
echo "switched away: tiltmaze dropped DRM master"
# For a person to look at, not judged (host-check): whether the console has
# redrawn by then is the kernel's fbdev emulation's business.
screendump --settled-below 32 kms-switched-away
chvt 1
wait_for "tiltmaze to take DRM master back on return" '[ "$(drm-master tiltmaze)" = y ]'
# Back, it draws again: a page flip to a buffer of its own.
wait-kms-flip
screendump --like expected-play-bochs 34 kms-switched-back
stop-game "$game"
tty1_mode_is text || { echo "tty1 was left in graphics mode"; exit 1; }
wait_for "the console's framebuffer on the screen after the game" '! kms_shows_tiltmaze'
screendump --unlike expected-play-bochs 34 kms-after
