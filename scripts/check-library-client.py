#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The LinuxMotion library as a program outside this package sees it
(Examples/, a package depending on the library product by path).

On real motion nobody here made (recordings/broad-21-fast-combined.csv:
eight seconds of BROAD's trial 21, fast combined motion, the recording
TiltMaze ships for programs to read without hardware), the examples' motion-json must print, through the
async sequence and through the handler, exactly the fused motion that
`tiltmaze monitor --json` prints for the same file. The spirit level and the
Sense HAT marble must run on that replay to its end and on the simulated
board. Exits 1 naming what differs.

usage: check-library-client.py TILTMAZE EXAMPLES_BIN_DIR"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDING = os.path.join(ROOT, "recordings/broad-21-fast-combined.csv")
KEYS = ("accel", "gravity", "attitude", "user_accel", "rotation_rate")
failures = []


def run(command, timeout=120, expect=0):
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if result.returncode != expect:
        failures.append(f"{' '.join(command)}: exit {result.returncode}, expected {expect}\n{result.stderr[-2000:]}")
    return result.stdout


def motions(text, name):
    """Each JSON line's fused motion, in order; a line that is not JSON is a failure."""
    values = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            failures.append(f"{name}: line {number} is not JSON: {line[:120]}")
            break
        values.append(tuple(json.dumps(record.get(k)) for k in KEYS))
    return values


def same(got, want, name):
    if len(got) != len(want):
        failures.append(f"{name}: {len(got)} values, monitor --json printed {len(want)}")
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            failures.append(f"{name}: value {i} differs from monitor --json:\n  {a}\n  {b}")
            break


def main():
    tiltmaze, bin_dir = sys.argv[1], sys.argv[2]
    count = sum(1 for _ in open(RECORDING)) - 1
    source = f"replay:{RECORDING}"
    want = motions(run([tiltmaze, "monitor", "--json", "--source", source]), "monitor --json")
    if len(want) != count:
        failures.append(f"monitor --json printed {len(want)} values for {count} samples")
    same(motions(run([f"{bin_dir}/motion-json", source]), "motion-json"), want, "motion-json (async sequence)")
    same(motions(run([f"{bin_dir}/motion-json", source, "--callback"]), "motion-json --callback"), want,
         "motion-json --callback (handler)")

    level = run([f"{bin_dir}/spirit-level", source])
    if level.count("right edge down") < 30:
        failures.append(f"spirit-level on the replay printed too few lines:\n{level[:500]}")
    marble = run([f"{bin_dir}/sensehat-marble", source])
    if "rolling in the terminal" not in marble or marble.count("●") < 2:
        failures.append(f"sensehat-marble on the replay did not roll:\n{marble[:500]}")
    # The simulated board runs until stopped: two seconds, then `timeout` ends it (exit 124);
    # stdbuf: line by line, or a pipe's buffer dies with the program.
    sim = run(["timeout", "2", "stdbuf", "-oL", f"{bin_dir}/spirit-level", "sim"], expect=124)
    if "simulated" not in sim or "right edge down +0.0°" not in sim:
        failures.append(f"spirit-level on the simulated board:\n{sim[:500]}")
    sim = run(["timeout", "2", "stdbuf", "-oL", f"{bin_dir}/sensehat-marble", "sim"], expect=124)
    if sim.count("●") < 1:
        failures.append(f"sensehat-marble on the simulated board drew nothing:\n{sim[:500]}")
    print(f"library client: {count} samples of BROAD trial 21 through the async sequence and the handler, "
          f"the same as monitor --json; spirit level and marble ran on the replay and the simulated board")

    if failures:
        for failure in failures:
            print("check-library-client:", failure, file=sys.stderr)
        sys.exit(1)


main()
