# The game on a real kernel's framebuffer: bochs DRM fbdev emulation, 32 bpp
# XRGB8888, 1280x800 with a 5120-byte line. tiltmaze runs on the console
# (tty1, its controlling terminal) with --display fb; the screendump must equal
# the opening frame `tiltmaze snapshot` draws for the same size and format
# (host-check), the status line aside (its clock runs). The console must be
# in graphics mode while it plays and back in text mode after; SIGTERM must
# end it cleanly, exit status 0.
set -eu

modprobe bochs
wait-for /dev/fb0 5
chvt 1

setsid sh -c "exec $BINARY play --display fb --source sim --level /scenario/still.txt </dev/tty1 >/dev/tty1 2>/tmp/play.err" &
game=$!
# Under emulation the (debug) program takes seconds to start. Its sensor and
# physics threads start once the display is up: wait for them, then a moment
# for the first frames.
for _ in $(seq 1 300); do
    kill -0 "$game" 2>/dev/null || { echo "tiltmaze ended early:"; cat /tmp/play.err; exit 1; }
    [ "$(ls /proc/$game/task | wc -l)" -ge 3 ] && break
    sleep 0.1
done
echo "tiltmaze has $(ls /proc/$game/task | wc -l) threads"
sleep 1
[ "$(./kdmode /dev/tty1)" = graphics ] || { echo "tty1 is not in graphics mode while tiltmaze plays"; exit 1; }
screendump play-bochs
kill -TERM "$game"
rc=0
wait "$game" || rc=$?
echo "tiltmaze exit status $rc"
cat /tmp/play.err
[ "$rc" = 0 ]
[ "$(./kdmode /dev/tty1)" = text ] || { echo "tty1 was left in graphics mode"; exit 1; }
