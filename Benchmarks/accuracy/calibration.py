#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""TiltMaze's six-position accelerometer calibration against published peer
methods, on the same recordings: known errors put in, real noise added.

Each seed makes one TiltMaze recording of a board held still on a series of
poses (3 s each, a 1 s turn at a steady rate between them) whose
accelerometer has a known bias b and scale matrix T:
reading = T⁻¹·(true specific force) + b + noise, in the chip's axes (identity
mount). The noise, accelerometer and gyroscope, is real: the still samples of
BROAD (Laidig, Caruso, Cereatti, Seel: "BROAD - A Benchmark for Robust
Inertial Orientation Estimation", Data 6(7), 2021, doi:10.3390/data6070072,
CC-BY-4.0) in Tests/Fixtures/broad/*.broadwin, those before each window's
first movement flag (about 8 s at 285.714 Hz, the recordings' rate), less
each window's mean, strung together and read from a random place. The last
1.5 s before the flag are left out (the IMU starts to move before BROAD's
flag does), and so are the windows whose still phase holds a deliberate
event (26: a phone vibrating next to it; 29: a magnet brought near; 33: a
magnet attached to it): those are motion, not a still sensor's noise.
`--all-still` keeps them, to show what a calibration makes of such moves.

Scenarios:
    A  the six faces, each off square by 1-5° about a random horizontal axis;
       bias per axis ±(0.1-0.4) g, scale per axis 1 ± (0-3) %, T diagonal
    B  as A plus six poses in random orientations (12 poses)
    C  as A plus twelve random poses (18), and T symmetric with cross-axis
       terms of ±(1-2) %

Methods, each given the same recording:
    TiltMaze            `tiltmaze calibrate --accelerometer --headless
                        --source replay:FILE`: finds the still stretches itself
    RTIMULib min/max    RTIMULibCal's accelerometer calibration: per axis the
                        min and max over the poses' mean readings; offset
                        (max+min)/2, scale g/((max-min)/2)
    RTIMULib as run     the same over every reading, smoothed as RTIMULibCal
                        smooths them (exponential average, alpha 0.1): what the
                        tool gets when the board is turned face to face
    Ellipsoid (axes)    Petrov's ellipsoid_fit (RTIMULib's Octave script),
                        axis-aligned: least squares of
                        a x² + b y² + c z² + 2g x + 2h y + 2i z = 1 on the pose means
    Ellipsoid (full)    its full quadric (cross terms too), 9 poses or more;
                        the scale is the diagonal of the symmetric matrix that
                        maps the ellipsoid onto a sphere of radius g
The peers get the pose means over the exact held intervals (TiltMaze has to
find its own), which favours them. RTIMULib itself corrects each sign
separately (a/max or a/-min); offset and scale agree with that at the faces.

Errors per seed: the bias's (|b - b_true|, m/s²) and the worst axis's scale
(|s/s_true - 1|, %, s the diagonal of T). Targets: bias <= 0.02 m/s², scale
<= 0.2 %. A refusal by TiltMaze (exit 65) is counted and misses the targets.

    cd Benchmarks && accuracy/calibration.py [--seeds N] [--tiltmaze PATH]

PATH is a built tiltmaze (default ../.build/debug/tiltmaze; this script never
builds). Prints a markdown table and writes it to
accuracy/calibration-results.md. Makes the Python venv (.build/accuracy-venv)
the first time, as the other scripts here do.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time

import filters   # numpy and scipy are imported where used: see filters.py

G = filters.G
RATE = 285.7142857142857          # BROAD's rate, kept so its noise has its own spectrum
HOLD, TURN = 3.0, 1.0             # s per pose, s per turn
BIAS_TARGET, SCALE_TARGET = 0.02, 0.2
BROAD = os.path.join(os.path.dirname(filters.PACKAGE), "Tests", "Fixtures", "broad")
RESULTS = os.path.join(filters.HERE, "calibration-results.md")
SCENARIOS = {"A": 1, "B": 1001, "C": 2001}   # first seed of each
METHODS = ("TiltMaze", "RTIMULib min/max", "RTIMULib as run", "Ellipsoid (axes)", "Ellipsoid (full)")
HEADER = ("TILTMAZE RECORDING 1\ndevice: benchmark IMU\nidentity: benchmark imu\nrate_hz: {rate!r}\n"
          "accel_scale: unknown\ngyro_scale: unknown\nmount_matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1\n\n")
LINE = re.compile(r"accelerometer bias: (\S+) (\S+) (\S+) m/s²; scale: (\S+) (\S+) (\S+); residual: (\S+) m/s²")


# The windows whose still phase is disturbed on purpose (see the docstring).
EVENTFUL = ("26_", "29_", "33_")
# Seconds before BROAD's movement flag that already hold the start of the move.
ONSET = 1.5


def still_noise(all_still=False):
    """BROAD's still samples (acc, gyr: N×6), each window's mean removed."""
    import numpy as np
    record = np.dtype([("acc", "<f4", 3), ("gyr", "<f4", 3), ("mag", "<f4", 3), ("quat", "<i2", 4),
                       ("movement", "u1")])
    parts = []
    for name in sorted(n for n in os.listdir(BROAD) if n.endswith(".broadwin")):
        if not all_still and name.startswith(EVENTFUL):
            continue
        with open(os.path.join(BROAD, name), "rb") as f:
            samples = np.frombuffer(f.read().split(b"\n\n", 1)[1], record)
        still = np.column_stack([samples["acc"], samples["gyr"]]).astype(float)
        end = np.flatnonzero(samples["movement"])[0]
        still = still[:end if all_still else end - int(ONSET * RATE)]
        parts.append(still - still.mean(axis=0))
    return np.concatenate(parts)


def make_case(scenario, seed, noise):
    """The errors put in and the readings: (b_true, T_true, acc, gyr, held
    intervals as (first, end) sample indices)."""
    import numpy as np
    from scipy.spatial.transform import Rotation
    rng = np.random.default_rng(seed)
    bias = rng.uniform(0.1, 0.4, 3) * G * rng.choice([-1, 1], 3)
    truth = np.diag(1 + rng.uniform(0, 0.03, 3) * rng.choice([-1, 1], 3))
    if scenario == "C":
        for i, j in ((0, 1), (0, 2), (1, 2)):
            truth[i, j] = truth[j, i] = rng.uniform(0.01, 0.02) * rng.choice([-1, 1])
    # Board→world turns putting +z, +x, +y, -z, -x, -y up in turn (no face straight after its opposite).
    faces = Rotation.from_rotvec(np.radians([[0, 0, 0], [0, -90, 0], [90, 0, 0], [180, 0, 0], [0, 90, 0],
                                             [-90, 0, 0]]))
    poses = []
    for face in faces:
        # Propped by hand: off square by 1-5° about a horizontal axis.
        heading = rng.uniform(0, 2 * np.pi)
        tilt = np.radians(rng.uniform(1, 5)) * np.array([np.cos(heading), np.sin(heading), 0])
        poses.append(Rotation.from_rotvec(tilt) * face)
    poses += list(Rotation.random({"A": 0, "B": 6, "C": 12}[scenario], random_state=rng))

    hold, turn = round(HOLD * RATE), round(TURN * RATE)
    up = [0, 0, G]
    force, rate, held = [], [], []
    for k, pose in enumerate(poses):
        held.append((sum(map(len, rate)), sum(map(len, rate)) + hold))
        force.append(np.tile(pose.apply(up, inverse=True), (hold, 1)))   # specific force, chip axes
        rate.append(np.zeros((hold, 3)))
        if k + 1 < len(poses):
            # A steady turn about a body axis from this pose to the next: the gyroscope reads it.
            step = (pose.inv() * poses[k + 1]).as_rotvec()
            force.append((pose * Rotation.from_rotvec(np.outer(np.arange(turn) / turn, step))).apply(up, inverse=True))
            rate.append(np.tile(step / (turn / RATE), (turn, 1)))
    force, rate = np.concatenate(force), np.concatenate(rate)
    n = len(rate)
    taken = noise[(rng.integers(len(noise)) + np.arange(n)) % len(noise)]
    acc = force @ np.linalg.inv(truth).T + bias + taken[:, :3]
    gyr = rate + taken[:, 3:]
    return bias, truth, acc, gyr, held


def write_recording(path, acc, gyr, rate=RATE):
    """A TiltMaze recording, version 1: 57-byte samples after the header."""
    import numpy as np
    sample = np.dtype([("t", "<i8"), ("fields", "u1"), ("acc", "<f8", 3), ("gyr", "<f8", 3)])
    records = np.zeros(len(acc), sample)
    records["t"] = np.round(np.arange(len(acc)) * 1e9 / rate).astype(np.int64)
    records["fields"] = 3          # acceleration and rotation rate
    records["acc"], records["gyr"] = acc, gyr
    with open(path, "wb") as f:
        f.write(HEADER.format(rate=rate).encode())
        f.write(records.tobytes())


def run_tiltmaze(tool, path):
    """(bias, scale, residual), or the refusal's message."""
    import numpy as np
    for attempt in range(60):
        if os.path.exists(tool):
            try:
                with tempfile.TemporaryDirectory() as config:
                    done = subprocess.run([tool, "calibrate", "--accelerometer", "--headless", "--source",
                                           "replay:" + path], capture_output=True, text=True,
                                          env={**os.environ, "XDG_CONFIG_HOME": config})
                break
            except OSError:   # being replaced by a rebuild right now
                pass
        time.sleep(10)
    else:
        sys.exit(f"calibration: no {tool} to run")
    if done.returncode == 65:
        return re.sub(r"^.*?refused: | \(.*\)$", "", done.stderr.strip())   # the reason, without the advice
    match = LINE.fullmatch(done.stdout.strip())
    if done.returncode != 0 or not match:
        sys.exit(f"calibration: {tool} failed ({done.returncode}): {done.stdout}{done.stderr}")
    values = np.array([float(v) for v in match.groups()])
    return values[:3], values[3:6], values[6]


def min_max(readings):
    """RTIMULib: each axis's extremes are its two faces."""
    high, low = readings.max(axis=0), readings.min(axis=0)
    return (high + low) / 2, 2 * G / (high - low)


def smoothed(acc, alpha=0.1):
    """RTIMULibCal's exponential average of the readings (started at the first)."""
    from scipy.signal import lfilter
    return lfilter([alpha], [1, alpha - 1], acc, axis=0, zi=[(1 - alpha) * acc[0]])[0]


def ellipsoid_axes(means):
    """Petrov's ellipsoid_fit, axis-aligned: centre -(g/a, h/b, i/c), radii from it."""
    import numpy as np
    x = np.asarray(means)
    v = np.linalg.lstsq(np.column_stack([x * x, 2 * x]), np.ones(len(x)), rcond=None)[0]
    centre = -v[3:] / v[:3]
    radii = np.sqrt((1 + np.sum(v[3:] ** 2 / v[:3])) / v[:3])
    return centre, G / radii


def ellipsoid_correction(means):
    """Petrov's ellipsoid_fit, full quadric, as a correction (centre, C):
    C = g·M^½, so that |C·(a - centre)| = g for (a - centre)ᵀ·M·(a - centre) = 1;
    None when the quadric is no ellipsoid."""
    import numpy as np
    x, y, z = np.asarray(means).T
    d = np.column_stack([x * x, y * y, z * z, 2 * x * y, 2 * x * z, 2 * y * z, 2 * x, 2 * y, 2 * z])
    a, b, c, xy, xz, yz, g, h, i = np.linalg.lstsq(d, np.ones(len(x)), rcond=None)[0]
    quadratic = np.array([[a, xy, xz], [xy, b, yz], [xz, yz, c]])
    centre = -np.linalg.solve(quadratic, [g, h, i])
    values, vectors = np.linalg.eigh(quadratic / (1 + centre @ quadratic @ centre))
    if values.min() <= 0:
        return None
    return centre, G * vectors @ np.diag(np.sqrt(values)) @ vectors.T


def ellipsoid_full(means):
    """Petrov's ellipsoid_fit, full quadric; the scale is the diagonal of its correction."""
    import numpy as np
    found = ellipsoid_correction(means)
    return None if found is None else (found[0], np.diag(found[1]))


def errors(found, bias, truth):
    """(bias error m/s², worst axis's scale error %), or None for no answer."""
    import numpy as np
    if found is None or isinstance(found, str):
        return None
    return float(np.linalg.norm(found[0] - bias)), float(100 * np.max(np.abs(found[1] / np.diag(truth) - 1)))


def run_seed(tool, scenario, seed, noise, folder):
    """Every method's errors on one recording, and TiltMaze's refusal, if any."""
    import numpy as np
    bias, truth, acc, gyr, held = make_case(scenario, seed, noise)
    path = os.path.join(folder, f"{scenario}-{seed}.tiltmaze")
    write_recording(path, acc, gyr)
    tiltmaze = run_tiltmaze(tool, path)
    os.remove(path)
    means = np.array([acc[first:end].mean(axis=0) for first, end in held])
    found = {"TiltMaze": tiltmaze, "RTIMULib min/max": min_max(means), "RTIMULib as run": min_max(smoothed(acc)),
             "Ellipsoid (axes)": ellipsoid_axes(means),
             "Ellipsoid (full)": ellipsoid_full(means) if len(means) >= 9 else "fewer than 9 poses"}
    return {m: errors(found[m], bias, truth) for m in METHODS}, tiltmaze if isinstance(tiltmaze, str) else None


def table(results, seeds):
    """Markdown rows: per scenario and method, over the seeds."""
    import numpy as np
    rows = ["| scenario | method | fitted | bias error RMS / max, m/s² | worst scale error RMS / max, % | "
            f"bias ≤ {BIAS_TARGET} | scale ≤ {SCALE_TARGET} % | both |", "|---|---|---|---|---|---|---|---|"]
    for scenario, runs in results.items():
        for method in METHODS:
            got = [r[method] for r, _ in runs if r[method] is not None]
            if not got:
                continue
            b, s = np.array(got).T
            rms = lambda v: np.sqrt(np.mean(v ** 2))
            rows.append(f"| {scenario} | {method} | {len(got)}/{seeds} | {rms(b):.4f} / {b.max():.4f} | "
                        f"{rms(s):.3f} / {s.max():.3f} | {np.sum(b <= BIAS_TARGET)}/{seeds} | "
                        f"{np.sum(s <= SCALE_TARGET)}/{seeds} | "
                        f"{np.sum((b <= BIAS_TARGET) & (s <= SCALE_TARGET))}/{seeds} |")
    return rows


def tiltmaze_option(parser):
    """--tiltmaze PATH: the built tiltmaze these scripts run (never build)."""
    parser.add_argument("--tiltmaze", default=os.path.join(os.path.dirname(filters.PACKAGE), ".build", "debug",
                                                           "tiltmaze"),
                        help="a built tiltmaze (default ../.build/debug/tiltmaze, from Benchmarks)")


def checkout():
    """The commit checked out, and whether Sources differ from it."""
    commit = subprocess.run(["git", "-C", filters.PACKAGE, "log", "-1", "--format=%h"], capture_output=True,
                            text=True).stdout.strip()
    if subprocess.run(["git", "-C", filters.PACKAGE, "status", "--porcelain", "--", "../Sources"], capture_output=True,
                      text=True).stdout.strip():
        commit += ", Sources with uncommitted changes"
    return commit


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=30, help="seeds per scenario (default 30)")
    parser.add_argument("--all-still", action="store_true",
                        help="noise from every sample before BROAD's movement flag, the moves before it included")
    tiltmaze_option(parser)
    args = parser.parse_args()
    filters.ensure_venv()
    import numpy as np
    tool = os.path.abspath(args.tiltmaze)
    started = time.monotonic()
    built = os.path.getmtime(tool) if os.path.exists(tool) else None
    noise = still_noise(args.all_still)
    print(f"noise: {len(noise)} still samples from BROAD; seeds: "
          + ", ".join(f"{s} {first}-{first + args.seeds - 1}" for s, first in SCENARIOS.items()), file=sys.stderr)
    results, refusals = {}, []
    with tempfile.TemporaryDirectory() as folder:
        for scenario, first in SCENARIOS.items():
            results[scenario] = []
            for seed in range(first, first + args.seeds):
                outcome = run_seed(tool, scenario, seed, noise, folder)
                results[scenario].append(outcome)
                t = outcome[0]["TiltMaze"]
                said = f"bias error {t[0]:.4f} m/s², scale error {t[1]:.3f} %" if t else f"refused: {outcome[1]}"
                print(f"{scenario} seed {seed}: TiltMaze {said}", file=sys.stderr)
                if outcome[1]:
                    refusals.append(f"{scenario} seed {seed}: {outcome[1]}")
    elapsed = time.monotonic() - started
    rebuilt = (os.path.getmtime(tool) if os.path.exists(tool) else None) != built
    rows = table(results, args.seeds)
    print("\n".join(rows))
    print(f"TiltMaze refused {len(refusals)} of {len(SCENARIOS) * args.seeds}; {elapsed:.0f} s", file=sys.stderr)

    commit = checkout()
    stamp = datetime.datetime.fromtimestamp(built).strftime("%Y-%m-%d %H:%M") if built else "?"
    lines = ["# Accelerometer calibration: TiltMaze and its peers", "",
             f"{datetime.date.today()}, made by `cd Benchmarks && accuracy/calibration.py --seeds {args.seeds}` "
             f"in {elapsed:.0f} s.", "",
             f"- TiltMaze: `{os.path.relpath(tool, filters.PACKAGE)}`, built {stamp} (checkout at {commit})"
             + (" — **rebuilt during the run**: the runs may mix two builds" if rebuilt else ""),
             "- noise: the still samples of BROAD (Laidig et al., Data 6(7), 2021, doi:10.3390/data6070072, "
             f"CC-BY-4.0) before each window's movement, in `Tests/Fixtures/broad/`"
             + (", every one (`--all-still`: the moves before BROAD's flag, a magnet attached, a phone vibrating included)"
                if args.all_still else ", less the last 1.5 s before the flag and windows 26, 29 and 33, whose still phase "
                "holds a deliberate event (a vibrating phone, a magnet brought or attached): that is motion, not noise")
             + f": {len(noise)} samples at "
             "285.714 Hz, each window's mean removed, read from a random place per seed",
             "- errors put in (reading = T⁻¹·force + b + noise): bias ±(0.1-0.4) g per axis, scale 1 ± (0-3) %; "
             "C also symmetric cross-axis terms ±(1-2) %",
             "- A: the six faces, each 1-5° off square, held 3 s, 1 s turns between; B: plus 6 random poses; "
             "C: plus 12 random poses and cross-axis terms",
             "- seeds (numpy default_rng): " + ", ".join(f"{s} {first}-{first + args.seeds - 1}"
                                                         for s, first in SCENARIOS.items()),
             "- peers get the pose means over the exact held intervals; TiltMaze finds its own still stretches; "
             "RTIMULib as run: min/max of every reading after RTIMULibCal's smoothing (alpha 0.1); "
             "the full ellipsoid needs 9 poses",
             f"- targets: bias error ≤ {BIAS_TARGET} m/s², worst axis's scale error ≤ {SCALE_TARGET} %; "
             "a refusal misses them", "",
             "Bias error |b − b_true|; scale error max over axes of |s/s_true − 1| (s: the diagonal of T). "
             "\"fitted\": seeds with an answer.", ""] + rows + [""]
    jolts = np.linalg.norm(noise[:, 3:], axis=1) > np.radians(2)
    lines += [f"TiltMaze refused: {len(refusals) or 'none'}. It finds the poses itself, with its still test "
              "(every reading within 2 °/s and 0.5 m/s² of the previous quarter second's mean); "
              f"{np.sum(jolts)} of BROAD's {len(noise)} still samples ({100 * np.mean(jolts):.1f} %) have the "
              "gyroscope more than 2 °/s from its mean, in short bursts.", ""]
    lines += [f"- {r}" for r in refusals] + ([""] if refusals else [])
    with open(RESULTS, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
