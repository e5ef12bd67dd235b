#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""TiltMaze's attitude filter against the best public ones, on the same data.

Generates IMU trajectories with exact ground truth, runs TiltMaze's filter
(the FilterAccuracy tool of this package), Laidig & Seel's VQF (PyPI `vqf`)
and x-io's Fusion (PyPI `imufusion`) on the same samples, and prints, per
case, the RMS and maximum inclination error: the angle between each
filter's "up" and the true one, after the first 2 s; then the lag of each
after a quick 20° tilt.

    cd Benchmarks && accuracy/compare.py [--seed N] [--rate HZ]

It makes a Python venv for them in .build/accuracy-venv the first time
(PyPI), and builds FilterAccuracy in release mode. The filters are run by
filters.py, which broad.py shares.
"""
import argparse
import math
import os
import sys

import filters
from filters import G


# Quaternions as (w, x, y, z) tuples; they rotate board vectors into the earth frame (z up).

def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qaxis(axis, angle):
    s = math.sin(angle / 2)
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def rotate(q, v):
    return qmul(qmul(q, (0.0,) + tuple(v)), qconj(q))[1:]


def rotation_vector(q):
    """The rotation vector (axis × angle) of q, taking the short way round."""
    if q[0] < 0:
        q = tuple(-c for c in q)
    s = math.sqrt(q[1] ** 2 + q[2] ** 2 + q[3] ** 2)
    if s < 1e-15:
        return (2 * q[1], 2 * q[2], 2 * q[3])
    angle = 2 * math.atan2(s, q[0])
    return tuple(c / s * angle for c in q[1:])


def euler(roll, pitch, yaw):
    return qmul(qaxis((0, 0, 1), yaw), qmul(qaxis((0, 1, 0), pitch), qaxis((1, 0, 0), roll)))


class Random:
    """A small seeded generator (the same numbers everywhere, whatever Python)."""

    def __init__(self, seed):
        self.state = seed * 2654435761 % (1 << 64) or 1

    def uniform(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 11) / float(1 << 53)

    def gauss(self):
        return math.sqrt(-2 * math.log(1 - self.uniform())) * math.cos(2 * math.pi * self.uniform())


def cases(seed):
    """name -> (attitude(t), linear acceleration in the earth frame (t), gyro bias rad/s)."""
    rng = Random(seed)
    shakes = []
    t = 3.0
    while t < 60:
        direction = (rng.gauss(), rng.gauss(), 0.5 * rng.gauss())
        n = math.sqrt(sum(c * c for c in direction))
        magnitude = (1 + rng.uniform()) * G
        shakes.append((t, 0.08 + 0.2 * rng.uniform(), tuple(c / n * magnitude for c in direction)))
        t += 1.5 + 2 * rng.uniform()

    def still(_):
        return euler(math.radians(20), math.radians(-10), 0.3)

    def player(t):
        return euler(0.4 * math.sin(0.9 * t), 0.3 * math.sin(0.6 * t + 1), 0.2 * math.sin(0.3 * t))

    def shaken(t):
        for start, length, a in shakes:
            if start <= t < start + length:
                # A half-sine push: zero velocity change over the shake, as a hand's jolt back and forth.
                return tuple(c * math.sin(2 * math.pi * (t - start) / length) for c in a)
        return (0.0, 0.0, 0.0)

    axis = (math.sin(math.radians(30)), 0.0, math.cos(math.radians(30)))

    def spinning(t):
        return qmul(qaxis(axis, math.radians(90) * t), euler(math.radians(15), 0, 0))

    bias = tuple(math.radians(b) for b in (1.5, -1.0, 2.0))
    none = (0.0, 0.0, 0.0)
    return {
        "static tilt": (still, lambda t: none, none),
        "slow tilting": (player, lambda t: none, none),
        "tilting with 1-2 g shakes": (player, shaken, none),
        "rotation about a tilted axis": (spinning, lambda t: none, none),
        "gyro bias 1-2 deg/s": (player, lambda t: none, bias),
    }


def trajectory(attitude, acceleration, bias, rate, seconds, seed):
    """Samples (t_ns, accel m/s², gyro rad/s) and the true up per sample."""
    rng = Random(seed)
    dt = 1.0 / rate
    rows, ups = [], []
    previous = attitude(0.0)
    for k in range(1, int(seconds * rate) + 1):
        t = k * dt
        q = attitude(t)
        # The gyro reads the rotation over the interval that ends at the sample.
        w = rotation_vector(qmul(qconj(previous), q))
        gyro = tuple(c / dt + b + 0.005 * rng.gauss() for c, b in zip(w, bias))
        a = acceleration(t)
        force = rotate(qconj(q), (a[0], a[1], a[2] + G))
        accel = tuple(c + 0.05 * rng.gauss() for c in force)
        rows.append((int(round(t * 1e9)),) + accel + gyro)
        ups.append(rotate(qconj(q), (0.0, 0.0, 1.0)))
        previous = q
    return rows, ups


def angle(a, b):
    dot = sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot))))


def score(estimates, truth, rate, skip=2.0):
    errors = [angle(e, t) for e, t in zip(estimates[int(skip * rate):], truth[int(skip * rate):])]
    return math.sqrt(sum(e * e for e in errors) / len(errors)), max(errors)


def step_lag(tool, work, rate, seed):
    """Milliseconds from the true tilt reaching 90 % of a 20° step (made in
    20 ms, a flick of the wrist) to each estimate reaching it."""
    start, size, ramp = 3.0, math.radians(20), 0.02

    def stepped(t):
        x = min(max((t - start) / ramp, 0.0), 1.0)
        return euler(size * x * x * (3 - 2 * x), 0, 0)   # smoothstep: finite rotation rate

    rows, truth = trajectory(stepped, lambda t: (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), rate, 6.0, seed)
    level = (0.0, 0.0, 1.0)
    goal = 0.9 * math.degrees(size)

    def reached(ups):
        for k, up in enumerate(ups):
            if k / rate >= start and angle(up, level) >= goal:
                return k / rate
        return math.inf

    path = os.path.join(work, "step.csv")
    t_ns, acc, gyr = columns(rows)
    filters.write_csv(path, t_ns, acc, gyr)
    truth_time = reached(truth)
    lag = {
        "TiltMaze": reached(filters.run_tiltmaze(tool, path)[:, :3]),
        "TiltMaze, accelerometer only (5 Hz low-pass)": reached(filters.run_tiltmaze(tool, path, ["--accelerometer-only"])[:, :3]),
        "VQF": reached(filters.run_vqf(acc, gyr, rate)),
        "Fusion": reached(filters.run_fusion(acc, gyr, rate)),
    }
    return {k: (v - truth_time) * 1000 for k, v in lag.items()}


def columns(rows):
    """trajectory()'s rows as filters.py takes them: t_ns, accelerometer, gyroscope."""
    import numpy as np
    table = np.array(rows)
    return table[:, 0].astype(np.int64), table[:, 1:4], table[:, 4:7]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    filters.ensure_venv()
    tool = filters.build_tool()
    work = os.path.join(filters.PACKAGE, ".build", "accuracy")
    os.makedirs(work, exist_ok=True)
    print(f"inclination error after the first 2 s, degrees: RMS / max ({args.rate:.0f} Hz, {args.seconds:.0f} s, seed {args.seed})")
    print(f"| case | TiltMaze | VQF | Fusion |")
    print(f"|---|---|---|---|")
    worse = []
    for i, (name, (attitude, acceleration, bias)) in enumerate(cases(args.seed).items()):
        rows, truth = trajectory(attitude, acceleration, bias, args.rate, args.seconds, args.seed * 100 + i)
        t_ns, acc, gyr = columns(rows)
        path = os.path.join(work, f"case{i}.csv")
        filters.write_csv(path, t_ns, acc, gyr)
        results = {
            "TiltMaze": score(filters.run_tiltmaze(tool, path)[:, :3], truth, args.rate),
            "VQF": score(filters.run_vqf(acc, gyr, args.rate), truth, args.rate),
            "Fusion": score(filters.run_fusion(acc, gyr, args.rate), truth, args.rate),
        }
        cells = " | ".join(f"{results[k][0]:.2f} / {results[k][1]:.2f}" for k in ("TiltMaze", "VQF", "Fusion"))
        print(f"| {name} | {cells} |")
        if results["TiltMaze"][0] > results["VQF"][0]:
            worse.append(name)
    print()
    print(f"lag after a 20° step tilt made in 20 ms: ms from the truth reaching 90 % to the estimate reaching it")
    for name, ms in step_lag(tool, work, args.rate, args.seed * 100 + 99).items():
        print(f"  {name}: {ms:.0f} ms")
    if worse:
        print(f"TiltMaze's RMS error is worse than VQF's in: {', '.join(worse)}")
        sys.exit(1)
    print("TiltMaze's RMS error is no worse than VQF's in any case")


if __name__ == "__main__":
    main()
