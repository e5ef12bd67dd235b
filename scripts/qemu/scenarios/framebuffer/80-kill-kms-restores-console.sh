# kill -9 while the game holds the console through KMS: no handler runs, so
# the kernel gives the display back (the DRM card's last close) and the
# game's guard process puts the console back in text mode. host-check: after
# a `clear` the screen is the console's, cleared, not the game's frame.
set -eu

for display in kms; do
    game=$(start-game --display "$display" --source sim --level /scenario/still.txt)
    sleep 1
    [ "$(./kdmode /dev/tty1)" = graphics ] || { echo "$display: tty1 is not in graphics mode while tiltmaze plays"; exit 1; }
    kill -KILL "$game"
    for _ in $(seq 1 100); do [ -e /tmp/play.status ] && break; sleep 0.1; done
    echo "$display: tiltmaze exit status $(cat /tmp/play.status) (137: killed by SIGKILL)"
    [ "$(cat /tmp/play.status)" = 137 ]
    for _ in $(seq 1 50); do [ "$(./kdmode /dev/tty1)" = text ] && break; sleep 0.1; done
    [ "$(./kdmode /dev/tty1)" = text ] || { echo "$display: kill -9 left tty1 in graphics mode"; exit 1; }
    echo "$display: tty1 back in text mode after kill -9"
    clear > /dev/tty1
    sleep 0.5
    screendump "killed-$display"
done
