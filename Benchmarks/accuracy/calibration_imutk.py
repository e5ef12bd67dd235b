#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""TiltMaze's accelerometer calibration and its peers on a real IMU's own
multi-position recording: IMU-TK's test data, judged on the poses each fit
did not see.

The data: `bin/test_data/xsens_acc.mat` and `xsens_gyro.mat` of IMU-TK
(Tedaldi, Pretto, Menegatti: "A Robust and Easy to Implement Method for IMU
Calibration without External Equipments", ICRA 2014; BSD licence;
https://github.com/Kyle-ak/imu_tk), the recording its authors calibrate
their own method on: an Xsens IMU's raw 16-bit counts at 100 Hz, 51 s still,
then turned by hand through some forty poses held a few seconds each. Nobody
here made it, and nobody knows its true bias and scale; what any right
calibration must do is make the still readings of every pose as long as
gravity. So each fit is judged on poses it was not given:

    six faces      the six poses nearest the six faces (the sensor was set
                   down by hand, 1-16° off square), as `tiltmaze calibrate
                   --accelerometer` asks a player for; judged on every
                   other pose
    leave one out  every pose but one; judged on the one left out, each
                   pose in turn

The error at a pose is | |C(m)| - g |, m the pose's mean reading and C the
fitted correction; the table gives its RMS and its largest over the poses
judged. The poses are found as IMU-TK finds them (the variance over a
101-sample window, against a multiple of the first 50 s's; the multiple
from 2 to 10 that gives its own fit the least cost; 1 s at least).

Methods, each given the same readings:
    none                the nominal scale alone (below): no calibration
    TiltMaze            `tiltmaze calibrate --accelerometer --headless`,
                        on a recording of just the poses it may use (each
                        with its gyroscope; six faces: the six poses back to
                        back; leave one out: the whole recording less the pose
                        and a second either side): it finds its own still
                        stretches, and the correction read from the file it saves
    RTIMULib min/max    per axis the extremes of the pose means (RTIMULibCal)
    Ellipsoid (axes)    Petrov's ellipsoid_fit, axis-aligned (RTIMULib's Octave)
    Ellipsoid (full)    its full quadric, 9 poses or more
    IMU-TK (Tedaldi)    IMU-TK's own model, C(a) = T·K·(a - b), T upper
                        triangular (3 misalignments), K diagonal: least
                        squares of g - |C(m)| over the pose means (IMU-TK
                        fits over a hundred samples a pose; the means give the
                        same answer to within the noise); 9 poses or more

The gyroscope: `tiltmaze calibrate --gyroscope --headless` on each 5 s
piece of the first 50 s (still), its bias against the mean of the other 45 s,
per axis; and how often the worst axis's error is within the uncertainty it
states (a standard uncertainty: about 0.68³ ≈ 31 % within 1u for the worst of
three axes, 0.954³ ≈ 87 % within 2u).

Units: TiltMaze reads m/s², so every method gets the counts less 32768 (a
16-bit ADC's middle) times g/4000 (a round nominal: the readings' half-range
per axis is 3983-4045 counts): a scale some 1-3 % off and a bias of up to
0.14 g, for each method to find. The gyroscope's counts less the first 50 s's
mean, times 1/6258 rad/s (IMU-TK's own nominal), are for TiltMaze's
stillness test and the gyroscope's check above. g is 9.80665 m/s² for every method (IMU-TK's example uses its
lab's 9.81744; the same g for all keeps the comparison fair).

    cd Benchmarks && accuracy/calibration_imutk.py [--data DIR] [--tiltmaze PATH]

DIR holds the two .mat files (default: .build/imu_tk/bin/test_data, cloned
from GitHub the first time). PATH is a built tiltmaze (default
../.build/debug/tiltmaze; this script never builds). Prints a markdown table
and writes it to accuracy/calibration-imutk-results.md.
"""
import argparse
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import calibration   # the peers' fits and the recording writer
import filters

G = filters.G
RATE = 100.0
NOMINAL = G / 4000.0                 # m/s² per count
GYRO_NOMINAL = 1 / 6258.0            # rad/s per count (IMU-TK's example)
INITIAL = 50.0                       # s still at the start (IMU-TK's example says so)
WINDOW, SHORTEST = 101, 100          # samples: the variance window, the shortest pose
REPOSITORY = "https://github.com/Kyle-ak/imu_tk"
RESULTS = os.path.join(filters.HERE, "calibration-imutk-results.md")
SIX = ("none", "TiltMaze", "RTIMULib min/max", "Ellipsoid (axes)")
ALL = SIX + ("Ellipsoid (full)", "IMU-TK (Tedaldi)")


def load(folder):
    """(acc m/s², gyr rad/s), N×3 each, at 100 Hz."""
    import numpy as np
    try:
        acc = np.loadtxt(os.path.join(folder, "xsens_acc.mat"), ndmin=2)
        gyr = np.loadtxt(os.path.join(folder, "xsens_gyro.mat"), ndmin=2)
    except (OSError, ValueError) as problem:
        sys.exit(f"calibration_imutk: {problem}; --data wants IMU-TK's bin/test_data folder "
                 f"(xsens_acc.mat and xsens_gyro.mat, from {REPOSITORY})")
    if acc.shape[1] != 4 or gyr.shape[1] != 4 or len(acc) < INITIAL * RATE:
        sys.exit(f"calibration_imutk: {folder}: not IMU-TK's recording (rows of time and three counts, 50 s or more)")
    if len(acc) != len(gyr) or np.abs(acc[:, 0] - gyr[:, 0]).max() > 1e-6:
        sys.exit(f"calibration_imutk: {folder}: the two files' timestamps differ")
    if abs(np.median(np.diff(acc[:, 0])) - 1 / RATE) > 1e-4:
        sys.exit(f"calibration_imutk: {folder}: not 100 Hz")
    still = int(INITIAL * RATE)
    return (acc[:, 1:] - 32768) * NOMINAL, (gyr[:, 1:] - gyr[:still, 1:].mean(axis=0)) * GYRO_NOMINAL


def tedaldi(means, start=None):
    """IMU-TK's accelerometer model fitted to pose means: (bias, 3×3 C)."""
    import numpy as np
    from scipy.optimize import least_squares

    def correction(p):
        t = np.array([[1, -p[0], p[1]], [0, 1, -p[2]], [0, 0, 1]])
        return t @ np.diag(p[3:6])

    def residuals(p):
        return G - np.linalg.norm((means - p[6:9]) @ correction(p).T, axis=1)

    p = least_squares(residuals, np.r_[0, 0, 0, 1, 1, 1, np.zeros(3)] if start is None else start).x
    return p[6:9], correction(p)


def poses(acc):
    """IMU-TK's static intervals [(first, end)], at its best threshold."""
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
    still = int(INITIAL * RATE)
    spread = np.linalg.norm(sliding_window_view(acc, WINDOW, axis=0).var(axis=-1), axis=1)
    reference = np.linalg.norm(acc[:still].var(axis=0))
    best = None
    for multiple in range(2, 11):
        quiet = np.r_[np.zeros(WINDOW // 2, bool), spread < multiple * reference, np.zeros(WINDOW // 2, bool)]
        edges = np.diff(np.r_[0, quiet.astype(int), 0])
        found = [(a, b) for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)) if b - a >= SHORTEST]
        if len(found) < 12:
            continue
        means = np.array([acc[a:b].mean(axis=0) for a, b in found])
        bias, c = tedaldi(means)
        cost = np.sum((G - np.linalg.norm((means - bias) @ c.T, axis=1)) ** 2)
        if best is None or cost < best[0]:
            best = (cost, found)
    if best is None:
        sys.exit("calibration_imutk: fewer than 12 still poses at every threshold")
    return best[1]


def nearest_faces(means):
    """Indices of the poses nearest +x, -x, +y, -y, +z, -z up, and how far off (degrees)."""
    import numpy as np
    centre = (means.max(axis=0) + means.min(axis=0)) / 2
    unit = (means - centre) / np.linalg.norm(means - centre, axis=1)[:, None]
    chosen = []
    for axis in range(3):
        for sign in (1, -1):
            j = int(np.argmax(sign * unit[:, axis]))
            chosen.append((j, float(np.degrees(np.arccos(np.clip(sign * unit[j, axis], -1, 1))))))
    return chosen


def run_tiltmaze(tool, acc, gyr, folder):
    """(bias, C) from the calibration tiltmaze saves, or its refusal."""
    import numpy as np
    path = os.path.join(folder, "imutk.tiltmaze")
    calibration.write_recording(path, acc, gyr, rate=RATE)
    with tempfile.TemporaryDirectory() as config:
        done = subprocess.run([tool, "calibrate", "--accelerometer", "--headless", "--source", "replay:" + path],
                              capture_output=True, text=True, env={**os.environ, "XDG_CONFIG_HOME": config})
        if done.returncode == 65:
            return done.stderr.strip()
        saved = glob.glob(os.path.join(config, "tiltmaze", "calibration", "*.json"))
        if done.returncode != 0 or len(saved) != 1:
            sys.exit(f"calibration_imutk: {tool} failed ({done.returncode}): {done.stdout}{done.stderr}")
        with open(saved[0]) as f:
            kept = json.load(f).get("accelerometer") or {}
    if "bias_m_s2" not in kept or "matrix" not in kept:
        sys.exit(f"calibration_imutk: {tool} printed \"{done.stdout.strip()}\" but saved no accelerometer calibration: "
                 "is it older than calibrate --accelerometer?")
    return np.array(kept["bias_m_s2"]), np.array(kept["matrix"])


def fits(methods, means):
    """The peers' (bias, C) from pose means; a string where a method cannot fit."""
    import numpy as np
    found = {}
    for method in methods:
        if method == "none":
            found[method] = (np.zeros(3), np.eye(3))
        elif method == "RTIMULib min/max":
            centre, scale = calibration.min_max(means)
            found[method] = (centre, np.diag(scale))
        elif method == "Ellipsoid (axes)":
            centre, scale = calibration.ellipsoid_axes(means)
            found[method] = (centre, np.diag(scale))
        elif method == "Ellipsoid (full)":
            found[method] = ((calibration.ellipsoid_correction(means) or "not an ellipsoid") if len(means) >= 9
                             else "fewer than 9 poses")
        elif method == "IMU-TK (Tedaldi)":
            found[method] = tedaldi(means) if len(means) >= 9 else "fewer than 9 poses"
    return found


def error(fit, mean):
    """| |C(m - b)| - g | at one pose, m/s²."""
    import numpy as np
    bias, c = fit
    return abs(float(np.linalg.norm(c @ (mean - bias))) - G)


GYRO_PIECE = 5.0                     # s: a stillness the command takes whole (it needs 3 s)
GYRO_LINE = re.compile(r"gyroscope bias: (\S+) (\S+) (\S+) rad/s ± (\S+)")


def gyroscope_pieces(tool, acc, gyr, folder):
    """Per 5 s piece of the still start: (worst axis's error against the
    rest's mean, stated uncertainty), rad/s; or the refusal."""
    import numpy as np
    n, still = int(GYRO_PIECE * RATE), int(INITIAL * RATE)
    path = os.path.join(folder, "gyroscope.tiltmaze")
    found = []
    for k in range(still // n):
        piece = slice(k * n, (k + 1) * n)
        calibration.write_recording(path, acc[piece], gyr[piece], rate=RATE)
        with tempfile.TemporaryDirectory() as config:
            done = subprocess.run([tool, "calibrate", "--gyroscope", "--headless", "--source", "replay:" + path],
                                  capture_output=True, text=True, env={**os.environ, "XDG_CONFIG_HOME": config})
        match = GYRO_LINE.fullmatch(done.stdout.strip())
        if done.returncode == 65:
            found.append(done.stderr.strip())
            continue
        if done.returncode != 0 or not match:
            sys.exit(f"calibration_imutk: {tool} failed ({done.returncode}): {done.stdout}{done.stderr}")
        bias, uncertainty = np.array([float(v) for v in match.groups()[:3]]), float(match.group(4))
        rest = np.r_[gyr[:k * n], gyr[(k + 1) * n:still]].mean(axis=0)
        found.append((float(np.abs(bias - rest).max()), uncertainty))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help="the folder with xsens_acc.mat and xsens_gyro.mat "
                                       "(default: .build/imu_tk/bin/test_data, cloned from GitHub)")
    calibration.tiltmaze_option(parser)
    args = parser.parse_args()
    filters.ensure_venv()
    import numpy as np
    tool = os.path.abspath(args.tiltmaze)
    if not os.path.exists(tool):
        sys.exit(f"calibration_imutk: no {tool}: build it first (swift build, in the package's folder)")
    folder = args.data
    if folder is None:
        clone = os.path.join(filters.PACKAGE, ".build", "imu_tk")
        if not os.path.exists(clone):
            print(f"calibration_imutk: cloning {REPOSITORY} into {clone}", file=sys.stderr)
            try:
                subprocess.run(["git", "clone", "-q", "--depth", "1", REPOSITORY, clone + ".part"], check=True)
            except (OSError, subprocess.CalledProcessError) as failure:
                sys.exit(f"calibration_imutk: could not clone {REPOSITORY} ({failure}): no network? "
                         "Clone it elsewhere and pass --data DIR/bin/test_data")
            os.rename(clone + ".part", clone)   # a clone cut short is never taken for the data
        folder = os.path.join(clone, "bin", "test_data")
    started = time.monotonic()
    acc, gyr = load(folder)
    held = poses(acc)
    means = np.array([acc[a:b].mean(axis=0) for a, b in held])
    faces = nearest_faces(means)
    print(f"{len(held)} poses; faces at poses {[j for j, _ in faces]}, "
          f"{', '.join(f'{d:.0f}°' for _, d in faces)} off square", file=sys.stderr)
    errors = {"six faces": {m: [] for m in SIX}, "leave one out": {m: [] for m in ALL}}
    refusals = []
    with tempfile.TemporaryDirectory() as work:
        # Six faces: fitted on them, judged on the rest.
        six = [j for j, _ in faces]
        pieces = [slice(*held[j]) for j in six]
        found = fits(SIX, means[six])
        found["TiltMaze"] = run_tiltmaze(tool, np.concatenate([acc[p] for p in pieces]),
                                         np.concatenate([gyr[p] for p in pieces]), work)
        for method, fit in found.items():
            if isinstance(fit, str):
                refusals.append(f"six faces, {method}: {fit}")
                continue
            errors["six faces"][method] = [error(fit, means[j]) for j in range(len(held)) if j not in six]
        # Leave one out: each pose judged by fits that never saw it.
        margin = int(RATE)
        for j, (first, end) in enumerate(held):
            others = np.delete(means, j, axis=0)
            found = fits(ALL, others)
            keep = np.ones(len(acc), bool)
            keep[max(0, first - margin):end + margin] = False
            found["TiltMaze"] = run_tiltmaze(tool, acc[keep], gyr[keep], work)
            for method, fit in found.items():
                if isinstance(fit, str):
                    refusals.append(f"leave out pose {j}, {method}: {fit}")
                    errors["leave one out"][method].append(np.nan)
                else:
                    errors["leave one out"][method].append(error(fit, means[j]))
            print(f"pose {j}: " + ", ".join(f"{m} {errors['leave one out'][m][-1]:.4f}" for m in ALL), file=sys.stderr)
        everything = run_tiltmaze(tool, acc, gyr, work)
        pieces = gyroscope_pieces(tool, acc, gyr, work)
    elapsed = time.monotonic() - started

    rows = ["| fitted on | method | judged on | error RMS, m/s² | largest, m/s² | RMS, % of g |",
            "|---|---|---|---|---|---|"]
    for scenario, by_method in errors.items():
        for method, values in by_method.items():
            v = np.array(values, float)
            answered = v[~np.isnan(v)]
            if len(answered) == 0:
                rows.append(f"| {scenario} | {method} | — | refused | | |")
                continue
            rms = float(np.sqrt(np.mean(answered ** 2)))
            judged = (f"{len(answered)} other poses" if scenario == "six faces"
                      else f"{len(answered)} of {len(v)} poses, each left out")
            rows.append(f"| {scenario} | {method} | {judged} | {rms:.4f} | {answered.max():.4f} | {100 * rms / G:.3f} |")
    print("\n".join(rows))

    commit = calibration.checkout()
    stamp = datetime.datetime.fromtimestamp(os.path.getmtime(tool)).strftime("%Y-%m-%d %H:%M")
    lines = ["# The calibrations on a real IMU's own recording (IMU-TK's test data)", "",
             f"{datetime.date.today()}, made by `cd Benchmarks && accuracy/calibration_imutk.py` in {elapsed:.0f} s.", "",
             f"- TiltMaze: `{os.path.relpath(tool, filters.PACKAGE)}`, built {stamp} (checkout at {commit})",
             "- data: IMU-TK's `bin/test_data/xsens_acc.mat` and `xsens_gyro.mat` (Tedaldi, Pretto, Menegatti, "
             f"ICRA 2014; BSD licence; {REPOSITORY}): an Xsens IMU's raw counts at 100 Hz, "
             f"{len(acc) / RATE:.0f} s; counts less 32768 times g/4000 for every method",
             f"- {len(held)} still poses, found as IMU-TK finds them; the six nearest the faces are "
             + ", ".join(f"pose {j} ({d:.0f}° off)" for j, d in faces),
             "- error at a pose: | |C(m − b)| − g |, g = 9.80665 m/s², m the pose's mean reading, "
             "judged only on poses the fit was not given", ""] + rows + [""]
    if isinstance(everything, str):
        fitted = [f"TiltMaze on the whole recording: {everything}", ""]
    else:
        rows_text = "; ".join(", ".join(f"{v:.5f}" for v in row) for row in everything[1])
        off = max(abs(everything[1][i, j]) / np.sqrt(everything[1][i, i] * everything[1][j, j])
                  for i in range(3) for j in range(3) if i != j)
        fitted = [f"TiltMaze on the whole recording: bias {', '.join(f'{v:.4f}' for v in everything[0])} m/s², "
                  f"matrix {rows_text}: its largest cross-axis term is {100 * off:.2f} % of the diagonal's.", ""]
    print(fitted[0])
    lines += fitted
    measured = np.array([p for p in pieces if not isinstance(p, str)])
    gyro = [f"The gyroscope, on {len(pieces)} pieces of {GYRO_PIECE:.0f} s of the still start: "
            + (f"{len(measured)} measured; worst axis's error against the other {INITIAL - GYRO_PIECE:.0f} s's mean "
               f"{measured[:, 0].max():.5f} rad/s at most (Android's target 0.002), {np.sqrt(np.mean(measured[:, 0] ** 2)):.5f} RMS; "
               f"within the stated uncertainty u in {np.sum(measured[:, 0] <= measured[:, 1])}, within 2u in "
               f"{np.sum(measured[:, 0] <= 2 * measured[:, 1])} (a standard uncertainty: about 31 % and 87 % "
               "for the worst of three axes)" if len(measured) else "none measured")
            + (f"; refused: {'; '.join(p for p in pieces if isinstance(p, str))}" if len(measured) < len(pieces) else "")
            + ".", ""]
    print(gyro[0])
    lines += gyro
    if refusals:
        lines += ["Refused or not fitted:", ""] + [f"- {r}" for r in refusals] + [""]
    with open(RESULTS, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
