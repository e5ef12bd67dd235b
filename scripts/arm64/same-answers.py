#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Same answers on both architectures: the x86_64 program run here and the
aarch64 program run emulated in the trixie arm64 root must print the same
bytes for the same input.

- Motion: every BROAD window in Tests/Fixtures/broad (real recordings,
  32 s each at 286 Hz, with the magnetometer), replayed through `monitor
  --json --reference magnetic-north`: gravity, user acceleration, attitude
  (to magnetic north), heading, field and rotation rate of every sample.
- The game's physics: `play --headless` of campaign levels on such a
  replay (the outcome and a hash of the whole ball trajectory).
- Pictures: `snapshot` of every campaign level, in the Pi console's RGB565
  and in XRGB8888.

Run for the release pair (the programs the packages ship, optimised: where
the compiler may fuse a multiply and an add differently per architecture)
and, when given, the debug pair (the programs the tests run: one window and
every level; emulated, ten times slower, so `make test` leaves it out). A
difference is reported with the first line or file that differs and, for
motion, the largest difference per field; the run then fails.

usage: same-answers.py X86_RELEASE ARM64_RELEASE [X86_DEBUG ARM64_DEBUG]"""
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_IN = os.path.join(ROOT, "scripts/arm64/run-in.sh")
WINDOWS = sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/broad/*.broadwin")))
LEVELS = sorted(glob.glob(os.path.join(ROOT, "levels/campaign/*.txt")))
failures = []


def broad_csv(window, path):
    """A whole .broadwin window (Tests/Fixtures/broad/README.md gives the
    format) as the CSV replay reads it, the float32 values printed exactly."""
    data = open(window, "rb").read()
    header, _, records = data.partition(b"\n\n")
    fields = dict(line.split(": ", 1) for line in header.decode().splitlines()[1:])
    rate, count = float(fields["rate_hz"]), int(fields["samples"])
    with open(path, "w") as out:
        out.write("t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\n")
        # Format 2: 9 float32 (accelerometer, gyroscope, magnetometer), 4 int16, 1 byte.
        for i in range(count):
            values = struct.unpack_from("<9f", records, 45 * i)
            out.write(f"{1_000_000_000 + round(i * 1e9 / rate)}," + ",".join(repr(v) for v in values) + "\n")


def script(program, commands):
    """One shell script running every command with the given program, each
    one's output into its own file: one emulated root entered once."""
    lines = ["set -e"]
    for out, arguments in commands:
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in arguments)
        lines.append(f"'{program}' {quoted} > '{out}'")
    return "\n".join(lines)


def run_all(program, commands, emulated):
    text = script(program, commands)
    command = ([RUN_IN, "target", "sh", "-c", text] if emulated else ["sh", "-c", text])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        failures.append(f"{program} failed ({'arm64, emulated' if emulated else 'here'}):\n{result.stderr[-2000:]}")
        return False
    return True


def largest_differences(x86_lines, arm_lines):
    """Per JSON field, the largest absolute difference between the two runs."""
    worst = {}
    for a, b in zip(x86_lines, arm_lines):
        ra, rb = json.loads(a), json.loads(b)
        for key, va in ra.items():
            vb = rb.get(key)
            flat_a = va if isinstance(va, list) else [va]
            flat_b = vb if isinstance(vb, list) else [vb]
            for p, q in zip(flat_a, flat_b):
                if isinstance(p, (int, float)) and isinstance(q, (int, float)):
                    worst[key] = max(worst.get(key, 0.0), abs(p - q))
    return {k: v for k, v in worst.items() if v}


def compare(label, kind, x86_file, arm_file):
    a, b = open(x86_file, "rb").read(), open(arm_file, "rb").read()
    if a == b:
        return True
    if kind == "json":
        la, lb = a.decode().splitlines(), b.decode().splitlines()
        first = next((i for i, (p, q) in enumerate(zip(la, lb)) if p != q), min(len(la), len(lb)))
        detail = f"first at line {first + 1} of {len(la)} (arm64 printed {len(lb)})"
        if first < min(len(la), len(lb)):
            detail += f":\n    x86_64: {la[first][:300]}\n    arm64:  {lb[first][:300]}"
            detail += f"\n    largest differences: {largest_differences(la, lb)}"
    else:
        detail = f"{len(a)} bytes on x86_64, {len(b)} on arm64"
    failures.append(f"{label}: x86_64 and arm64 differ, {detail}")
    return False


def pair(name, x86, arm, windows, levels, csvs, work):
    """The checks for one pair of programs; returns how many outputs matched."""
    os.makedirs(os.path.join(work, "x86"), exist_ok=True)
    os.makedirs(os.path.join(work, "arm"), exist_ok=True)
    jobs = []   # (label, kind, file name, arguments)
    for window in windows:
        csv = os.path.join(csvs, os.path.basename(window) + ".csv")
        stem = os.path.basename(window).split(".")[0]
        jobs.append((f"monitor --json of BROAD {stem}", "json", f"monitor-{stem}.json",
                     ["monitor", "--json", "--reference", "magnetic-north", "--source", f"replay:{csv}"]))
    first = os.path.join(csvs, os.path.basename(windows[0]) + ".csv")
    for level in levels:
        stem = os.path.basename(level)[:-4]
        jobs.append((f"play --headless {stem} on BROAD {os.path.basename(windows[0])[:2]}", "json",
                     f"play-{stem}.json", ["play", "--headless", "--source", f"replay:{first}", "--level", level]))
        for form in ("rgb565", "xrgb8888"):
            jobs.append((f"snapshot {stem} {form}", "png", f"snapshot-{stem}-{form}.png",
                         ["snapshot", "--level", level, "--size", "800x480", "--format", form,
                          "--out", os.path.join(work, "{side}", f"snapshot-{stem}-{form}.png")]))

    def commands(side):
        result = []
        for _, kind, out, arguments in jobs:
            arguments = [a.replace("{side}", side) for a in arguments]
            target = os.path.join(work, side, out if kind == "json" else out + ".log")
            result.append((target, arguments))
        return result

    # Both sides at once: the emulated one is the long one, and on two cores
    # the release and debug pairs (main) run beside each other too.
    with ThreadPoolExecutor(max_workers=2) as sides:
        ran = list(sides.map(lambda args: run_all(*args),
                             [(x86, commands("x86"), False), (arm, commands("arm"), True)]))
    if not all(ran):
        return 0
    same = 0
    for label, kind, out, _ in jobs:
        same += compare(f"{name}: {label}", kind, os.path.join(work, "x86", out), os.path.join(work, "arm", out))
    print(f"same-answers: {name}: {same} of {len(jobs)} outputs byte-identical on x86_64 and arm64", file=sys.stderr)
    return same


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__.split("usage: ")[1])
    x86_release, arm_release, *debug = map(os.path.abspath, sys.argv[1:])
    for program in sys.argv[1:]:
        if not os.access(program, os.X_OK):
            sys.exit(f"same-answers: no program at {program}: build it first")
    # In the work tree: the arm64 root sees it at the same path, not this /tmp.
    os.makedirs(os.path.join(ROOT, ".build-arm64"), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, ".build-arm64"), prefix="same-answers.") as work:
        os.chmod(work, 0o755)
        for window in WINDOWS:
            broad_csv(window, os.path.join(work, os.path.basename(window) + ".csv"))
        # The release programs get every window and level; the debug ones
        # (ten times slower emulated) one window and every level.
        with ThreadPoolExecutor(max_workers=2) as pairs:
            runs = [pairs.submit(pair, "release", x86_release, arm_release, WINDOWS, LEVELS, work,
                                 os.path.join(work, "release"))]
            if debug:
                runs.append(pairs.submit(pair, "debug", debug[0], debug[1], WINDOWS[:1], LEVELS, work,
                                         os.path.join(work, "debug")))
            for done in runs:
                done.result()
    if failures:
        for failure in failures:
            print(f"same-answers: {failure}", file=sys.stderr)
        sys.exit(1)


main()
