# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Console switching as well-behaved fbdev programs do it (VT_PROCESS): on a
# switch away (chvt 2) the game lets go and stops drawing, so what another
# program puts on the screen stays there; coming back (chvt 1) it draws
# everything again. host-check: switched-away.png is all black (our own dd,
# not overdrawn by the running clock), switched-back.png equals the opening
# frame below the status bar.
set -eu

game=$(start-game --display fb --source sim --level /scenario/still.txt)
sleep 1
chvt 2
sleep 0.5
dd if=/dev/zero of=/dev/fb0 bs=4096000 count=1 2>/dev/null
sleep 1
screendump switched-away
chvt 1
sleep 1
screendump --settled-below 34 switched-back
stop-game "$game"
[ "$(./kdmode /dev/tty1)" = text ] || { echo "tty1 was left in graphics mode"; exit 1; }
