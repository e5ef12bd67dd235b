#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The CPU a game at rest costs, thread by thread.

Plays campaign level 2 ("First Roll": three patrolling ghosts, the ball
still) on the simulated board in a 100x32 tmux terminal, touches nothing,
and reads each thread's CPU time from /proc over a window (30 s unless
told). Several binaries are measured in turns, round after round, so a
busy machine weighs on each alike; the figures are the medians over the
rounds, in percent of one core.

Each thread's time is read twice: `schedstat`'s run time (nanoseconds) and
`stat`'s utime + stime (clock ticks, 1/100 s: 0.03 % of a core over 30 s).
The first is the figure; the second is shown beside it as a check. How
often each thread was put on a CPU (`schedstat`'s third field) and what a
run cost on average say how much is the work and how much the wake-up: a
thread that sleeps to a deadline pays for the wake-up however little it does.

    scripts/measure-rest-cpu.py .build/release/tiltmaze [OTHER_BINARY ...] [--seconds 30] [--rounds 3] [--floor]

With --floor it also measures, in the same rounds, what the game's three
wake-ups cost with no work at all: three processes (a few lines of C,
compiled here) that only sleep to absolute deadlines at the physics' 240 Hz,
the simulated sensor's 200 Hz and the frames' 60 Hz, each with the timer
slack the game's thread asks for. On a virtual machine a wake-up is dear,
and this floor is most of a game at rest.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")
SESSION = "tiltmaze-rest-cpu"


def thread_times(pid):
    """{thread name: (run ns, ticks, times run)} summed over threads of one name."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            with open(base + "/stat") as f:
                stat = f.read()
            with open(base + "/schedstat") as f:
                fields_s = f.read().split()
                run_ns, runs = int(fields_s[0]), int(fields_s[2])
        except FileNotFoundError:
            continue  # the thread ended between the listing and the read
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        ns, t, r = out.get(name, (0, 0, 0))
        out[name] = (ns + run_ns, t + ticks, r + runs)
    return out


def wait_for(what, condition, bound=60):
    """Polls `condition` until true; fails only on a hang (`bound` seconds)."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    sys.exit(f"measure-rest-cpu: timed out waiting for {what}")


def pane_text():
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", SESSION], capture_output=True, text=True).stdout


def measure(binary, seconds, home):
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    command = (f"exec env HOME={home} XDG_STATE_HOME={home}/state XDG_CONFIG_HOME={home}/config TERM=xterm-256color "
               f"{binary} --source sim --start 2 --display terminal")
    subprocess.run(["tmux", "new-session", "-d", "-s", SESSION, "-x", "100", "-y", "32", command], check=True)
    try:
        pid = int(subprocess.run(["tmux", "display-message", "-p", "-t", SESSION, "#{pane_pid}"],
                                 capture_output=True, text=True, check=True).stdout)
        wait_for("the level's title on screen", lambda: "First Roll" in pane_text())
        before, start = thread_times(pid), time.monotonic()
        time.sleep(seconds)  # the window measured: nothing is checked after it, only counted
        after, elapsed = thread_times(pid), time.monotonic() - start
        if "First Roll" not in pane_text():
            sys.exit(f"measure-rest-cpu: {binary} left the level while measured:\n{pane_text()}")
    finally:
        subprocess.run(["tmux", "send-keys", "-t", SESSION, "q"], capture_output=True)
        wait_for("the game to quit", lambda: subprocess.run(["tmux", "has-session", "-t", SESSION],
                                                            capture_output=True).returncode != 0, bound=20)
    figures = {}
    for name, (ns, ticks, runs) in after.items():
        ns0, ticks0, runs0 = before.get(name, (0, 0, 0))
        woken = max(runs - runs0, 1)
        figures[name] = (100 * (ns - ns0) / 1e9 / elapsed, 100 * (ticks - ticks0) / TICKS / elapsed,
                         woken / elapsed, (ns - ns0) / 1e3 / woken)
    return figures


# The game's three periodic wake-ups, with the timer slack each asks for: the
# physics (10 µs), the simulated board (80 % of its period: its samples are
# stamped with their deadlines), the frames' ppoll (the kernel's default 50 µs).
FLOOR_WAKERS = {"floor 240 Hz": (240, 10_000), "floor 200 Hz": (200, 4_000_000), "floor 60 Hz": (60, 50_000)}
IDLE_WAKER_C = r"""
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
int main(int argc, char **argv) {
    long rate = atol(argv[1]), slack = atol(argv[2]), seconds = atol(argv[3]), period = 1000000000L / rate;
    prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    for (long i = 0; i < rate * seconds; i++) {
        t.tv_nsec += period;
        while (t.tv_nsec >= 1000000000L) { t.tv_nsec -= 1000000000L; t.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
    }
    return 0;
}
"""


def idle_waker(directory):
    """A C program that only sleeps to absolute deadlines (Python's own work
    per wake-up would be counted as the wake-up's); nil without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    if not compiler:
        return None
    with open(directory + "/idle-waker.c", "w") as f:
        f.write(IDLE_WAKER_C)
    subprocess.run([compiler, "-O2", "-o", directory + "/idle-waker", directory + "/idle-waker.c"], check=True)
    return directory + "/idle-waker"


def measure_floor(waker, seconds):
    """What the three idle wakers cost, by the same /proc reading as the game's threads."""
    children = {name: subprocess.Popen([waker, str(rate), str(slack), str(int(seconds) + 2)])
                for name, (rate, slack) in FLOOR_WAKERS.items()}
    time.sleep(0.5)
    before = {name: thread_times(child.pid) for name, child in children.items()}
    start = time.monotonic()
    time.sleep(seconds)  # the window measured
    after = {name: thread_times(child.pid) for name, child in children.items()}
    elapsed = time.monotonic() - start
    figures = {}
    for name, child in children.items():
        (ns, ticks, runs), = after[name].values()
        (ns0, ticks0, runs0), = before[name].values()
        woken = max(runs - runs0, 1)
        figures[name] = (100 * (ns - ns0) / 1e9 / elapsed, 100 * (ticks - ticks0) / TICKS / elapsed,
                         woken / elapsed, (ns - ns0) / 1e3 / woken)
    for child in children.values():
        child.wait()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--floor", action="store_true", help="also measure three idle wakers at the game's rates")
    args = parser.parse_args()
    if not shutil.which("tmux"):
        sys.exit("measure-rest-cpu: needs tmux (sudo apt-get install tmux)")
    for binary in args.binaries:
        if not os.access(binary, os.X_OK):
            sys.exit(f"measure-rest-cpu: {binary} is not an executable: build it first (make release)")
    runs = {b: [] for b in args.binaries}
    if args.floor:
        runs["floor"] = []
    with tempfile.TemporaryDirectory(prefix="tiltmaze-rest-cpu.") as home:
        waker = idle_waker(home) if args.floor else None
        if args.floor and not waker:
            sys.exit("measure-rest-cpu: --floor needs a C compiler (cc, clang or gcc)")
        os.makedirs(home + "/state/tiltmaze")
        with open(home + "/state/tiltmaze/progress.json", "w") as f:
            # Level 1 won once: level 2 is open, and --start 2 plays it.
            f.write('{"format": "tiltmaze-progress", "version": 1, '
                    '"levels": {"campaign/01-warm-up": {"best_s": 30.0, "wins": 1}}}\n')
        for r in range(args.rounds):
            for binary in args.binaries:
                figures = measure(os.path.abspath(binary), args.seconds, home)
                runs[binary].append(figures)
                total = sum(f[0] for f in figures.values())
                print(f"round {r + 1}: {binary}: {total:.2f} % of a core", file=sys.stderr)
            if args.floor:
                runs["floor"].append(measure_floor(waker, args.seconds))
    for binary, rounds in runs.items():
        names = sorted({n for figures in rounds for n in figures})
        print(f"{binary}: median of {len(rounds)} rounds of {args.seconds:g} s")
        print(f"  {'thread':<16} {'% of a core':>11} {'[stat ticks]':>12} {'runs/s':>7} {'µs a run':>8}")
        for name in names:
            def median(i):
                return statistics.median(f.get(name, (0, 0, 0, 0))[i] for f in rounds)
            print(f"  {name:<16} {median(0):11.2f} {median(1):12.2f} {median(2):7.0f} {median(3):8.1f}")
        total = statistics.median(sum(v[0] for v in f.values()) for f in rounds)
        print(f"  {'total':<16} {total:11.2f}")


if __name__ == "__main__":
    main()
