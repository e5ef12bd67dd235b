#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""TiltMaze's attitude filter against VQF and Fusion on real recordings: BROAD,
six axes (inclination) and nine (heading, with the magnetometer).

BROAD (Laidig, Caruso, Cereatti, Seel: "BROAD - A Benchmark for Robust
Inertial Orientation Estimation", Data 6(7), 2021, doi:10.3390/data6070072,
CC-BY-4.0) has 39 trials of a handheld IMU at 285.7 Hz with an optical
motion-capture reference: slow and fast rotations, translations, both
combined, and disturbances (tapping, phone vibration, magnets). Every filter
runs fresh over each whole trial, on the same samples:

    TiltMaze             FilterAccuracy (this package's tool)
    TiltMaze 9D          FilterAccuracy --magnetometer (xMagneticNorthZVertical)
    TiltMaze 9D no hard iron  FilterAccuracy --magnetometer --no-hard-iron
    TiltMaze accel-only  FilterAccuracy --accelerometer-only
    TiltMaze accel+mag   FilterAccuracy --no-gyroscope --magnetometer (CompassTilt,
                         a tilt-compensated compass in xMagneticNorthZVertical)
    VQF online (9D)      vqf: VQF(Ts).updateBatch, its quat6D (quat9D)
    VQF offline (9D)     vqf: offlineVQF (acausal: a bound, not a rival)
    Fusion (9D)          imufusion: Ahrs after Bias (settings in filters.py),
                         update_no_magnetometer (update)

Error: the inclination error, the angle between a filter's "up" and the
reference's (BROAD's calculateInclinationError), in degrees; samples where the
reference lost its markers are skipped. Per trial and filter: the RMS over the
trial's movement phase (the dataset's own figure), the RMS and the maximum
over everything after the first 2 s. Groups average their trials' figures.
Heading error: the turn about the vertical between a filter's attitude and
the reference's, less one constant per trial and filter (the reference's x is
not north; see filters.heading), RMS over the movement phase.

    cd Benchmarks && accuracy/broad.py [--broad DIR] [--trials 06,15] [--plot-trials 06,21]
                                       [--plot-accelerometer-only] [--tool PATH]

DIR is a checkout of github.com/dlaidig/broad (with data_mat/*.mat) or its git
directory without a work tree (files are then read with `git show` into
.build/broad/); the default is $TILTMAZE_BROAD, else .build/broad-repo:

    git clone --depth 1 https://github.com/dlaidig/broad .build/broad-repo

Trials missing from DIR are named on stderr and left out. Prints markdown
tables (per trial, then per group) and writes them to accuracy/broad-results.md,
and plots the error over time of a few telling trials to
accuracy/broad-inclination.png and accuracy/broad-heading.png. It makes the Python venv (.build/accuracy-venv)
the first time and builds FilterAccuracy in release mode unless --tool names a
built one.

Exit status 1 (after printing everything) if TiltMaze's RMS after 2 s is above
1.1 × VQF online's in any trial, or its mean over the trials is above VQF
online's mean, or TiltMaze is ever more than 30° off after 2 s, or its
inclination is worse with the magnetometer than without in any trial, or its
nine-axis heading RMS is above 1.1 × VQF online 9D's + 0.1° in any trial or
above VQF's on average; 2 if there is no BROAD data; 0 otherwise. The
targets that are not gated (accelerometer and magnetometer without a
gyroscope, the offline bound) are printed as met or not.
"""
import argparse
import concurrent.futures
import datetime
import io
import json
import math
import os
import subprocess
import sys
import time

import filters   # numpy and the rest are imported where used: see filters.py

BUILD = os.path.join(filters.PACKAGE, ".build")
CACHE = os.path.join(BUILD, "broad")
RESULTS = os.path.join(filters.HERE, "broad-results.md")
PLOT = os.path.join(filters.HERE, "broad-inclination.png")
HEADING_PLOT = os.path.join(filters.HERE, "broad-heading.png")
NAMES = ("TiltMaze", "TiltMaze 9D", "TiltMaze accel-only", "TiltMaze accel+mag", "VQF online", "VQF offline",
         "Fusion")
# Heading, nine axes: TiltMaze six-axis (the gyroscope's heading) as the baseline.
HEADING_NAMES = ("TiltMaze 6D", "TiltMaze 9D", "TiltMaze 9D no hard iron", "VQF online 9D", "VQF offline 9D",
                 "Fusion 9D", "TiltMaze accel+mag")
# Drawn in the heading picture: the gyroscope-less compass, degrees off and noisy, would hide the rest.
HEADING_PLOTTED = HEADING_NAMES[:-1]
# FilterAccuracy's options per TiltMaze run (Tools/FilterAccuracy/main.swift).
TOOL_RUNS = {"TiltMaze": [], "TiltMaze 9D": ["--magnetometer"], "TiltMaze 9D no hard iron": ["--magnetometer", "--no-hard-iron"],
             "TiltMaze accel-only": ["--accelerometer-only"], "TiltMaze accel+mag": ["--no-gyroscope", "--magnetometer"]}
COLORS = {"TiltMaze": "tab:red", "TiltMaze 9D": "tab:red", "TiltMaze 6D": "tab:orange", "TiltMaze accel-only": "tab:orange",
          "TiltMaze accel+mag": "tab:brown", "TiltMaze 9D no hard iron": "black", "VQF online": "tab:blue",
          "VQF online 9D": "tab:blue", "VQF offline": "0.45", "VQF offline 9D": "0.45", "Fusion": "tab:green",
          "Fusion 9D": "tab:green"}
# VQF offline sees the future: a bound, drawn dotted so it reads as one. TiltMaze without hard-iron
# learning lies on VQF online: dashed, so both show.
STYLES = {"VQF offline": ":", "VQF offline 9D": ":", "TiltMaze 9D no hard iron": "--"}
SKIP = 2.0   # seconds every filter gets to find its first attitude
# (label, BROAD group in trials.json) in the order of the group table.
GROUPS = (("all available", "all_trials"), ("rotation", "rotation"), ("translation", "translation"),
          ("combined", "combined"), ("slow", "slow"), ("fast", "fast"), ("disturbed", "disturbed"))
# Fast rotation, fast translation, both, and a vibrating phone beside the IMU.
DEFAULT_PLOT = "06,15,21,26"
# A magnet attached to the IMU (2 cm), and one lying beside its path.
DEFAULT_HEADING_PLOT = "33,29"
# The gate on TiltMaze.
RMS_FACTOR = 1.1
MAX_ERROR = 30.0
HEADING_SLACK = 0.1   # degrees, added to RMS_FACTOR × VQF's heading RMS


class Broad:
    """The dataset in a checkout (data_mat/ on disk) or a git directory
    without work tree (data_mat/ read through git show into CACHE)."""

    def __init__(self, directory):
        self.directory = directory
        self.git = None
        listing = os.path.join(directory, "data_mat", "trials.json")
        if os.path.isfile(listing):
            with open(listing) as f:
                self.trials = json.load(f)["trials"]
        else:
            self.git = ["git", "--git-dir", directory]
            shown = subprocess.run(self.git + ["show", "HEAD:data_mat/trials.json"], capture_output=True, text=True)
            if shown.returncode != 0:
                raise FileNotFoundError(directory)
            self.trials = json.loads(shown.stdout)["trials"]
        self.present = self._present()

    def _present(self):
        """Names of the trials whose .mat is there (a shallow or partial copy can lack some)."""
        if self.git is None:
            return [t for t in self.trials if os.path.isfile(os.path.join(self.directory, "data_mat", t + ".mat"))]
        query = "".join(f"HEAD:data_mat/{t}.mat\n" for t in self.trials)
        answer = subprocess.run(self.git + ["cat-file", "--batch-check"], input=query, capture_output=True,
                                text=True, check=True).stdout.splitlines()
        return [t for t, line in zip(self.trials, answer) if not line.endswith(" missing")]

    def text(self, path):
        """A text file of the repository, such as LICENSE."""
        if self.git is None:
            with open(os.path.join(self.directory, path)) as f:
                return f.read()
        return subprocess.run(self.git + ["show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout

    def mat(self, trial):
        """The path of a trial's .mat file on disk."""
        if self.git is None:
            return os.path.join(self.directory, "data_mat", trial + ".mat")
        path = os.path.join(CACHE, "data_mat", trial + ".mat")
        if not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".part", "wb") as f:
                subprocess.run(self.git + ["show", f"HEAD:data_mat/{trial}.mat"], stdout=f, check=True)
            os.replace(path + ".part", path)
        return path

    def load(self, trial):
        """acc (m/s²), gyr (rad/s), mag (µT), quat (board→earth, w x y z, NaN rows where
        the markers were lost), movement (bool) and rate (Hz) of a trial."""
        import scipy.io
        d = scipy.io.loadmat(self.mat(trial), squeeze_me=True,
                             variable_names=["imu_acc", "imu_gyr", "imu_mag", "opt_quat", "movement", "sampling_rate"])
        return {"acc": d["imu_acc"], "gyr": d["imu_gyr"], "mag": d["imu_mag"], "quat": d["opt_quat"],
                "movement": d["movement"].astype(bool), "rate": float(d["sampling_rate"])}


def open_broad(directory):
    """The dataset, or exit 2 saying how to get it."""
    try:
        return Broad(directory)
    except FileNotFoundError:
        print(f"broad: no BROAD data in {directory}: neither data_mat/trials.json nor a git directory holding it.\n"
              f"Get the dataset (CC-BY-4.0) with\n"
              f"    git clone --depth 1 https://github.com/dlaidig/broad {os.path.join(BUILD, 'broad-repo')}\n"
              f"or pass --broad DIR (a checkout, or a git directory without work tree), or set TILTMAZE_BROAD.",
              file=sys.stderr)
        sys.exit(2)


def number(trial):
    return trial[:2]


def short_name(trial):
    """"15_undisturbed_fast_translation_A" -> "15_fast_translation_A"."""
    return trial.replace("_undisturbed_", "_").replace("_disturbed_", "_")


def times_ns(count, rate):
    """Sample i at round(i·1e9/rate) ns (the .broadwin fixtures' README says the same)."""
    import numpy as np
    return np.rint(np.arange(count) * 1e9 / rate).astype(np.int64)


def rms(errors):
    import numpy as np
    return float(np.sqrt(np.nanmean(np.square(errors))))


def metrics(errors, movement, rate):
    """Degrees: RMS over the movement phase, RMS and max from t = 2 s on
    (sample ceil(2·rate)); NaN errors (no reference) are skipped."""
    import numpy as np
    after = errors[math.ceil(SKIP * rate):]
    return {"rms_movement": rms(errors[movement]), "rms_after_2s": rms(after), "max_after_2s": float(np.nanmax(after))}


def run_filters(tool, csv, data, seconds):
    """(ups, attitudes): name -> "up" per sample for NAMES, name -> attitude
    quaternion per sample for HEADING_NAMES; seconds[name] accumulates each
    filter's run time. The FilterAccuracy runs take nearly all the time
    (reading and printing text), so they run two at a time beside the
    Python filters."""
    acc, gyr, mag, rate = data["acc"], data["gyr"], data["mag"], data["rate"]

    def timed(name, run, *arguments):
        start = time.monotonic()
        result = run(*arguments)
        seconds[name] = seconds.get(name, 0.0) + time.monotonic() - start
        return result

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tools = {name: pool.submit(timed, name, filters.run_tiltmaze, tool, csv, options)
                 for name, options in TOOL_RUNS.items()}
        ups = {"VQF online": timed("VQF online", filters.run_vqf, acc, gyr, rate),
               "VQF offline": timed("VQF offline", filters.run_vqf_offline, acc, gyr, rate),
               "Fusion": timed("Fusion", filters.run_fusion, acc, gyr, rate)}
        attitudes = {"VQF online 9D": timed("VQF online 9D", filters.run_vqf_9d, acc, gyr, mag, rate),
                     "VQF offline 9D": timed("VQF offline 9D", filters.run_vqf_offline_9d, acc, gyr, mag, rate),
                     "Fusion 9D": timed("Fusion 9D", filters.run_fusion_9d, acc, gyr, mag, rate)}
        runs = {name: future.result() for name, future in tools.items()}
    ups.update((name, out[:, :3]) for name, out in runs.items() if name in NAMES)
    attitudes["TiltMaze 6D"] = runs["TiltMaze"][:, 3:]
    attitudes.update((name, runs[name][:, 3:]) for name in ("TiltMaze 9D", "TiltMaze 9D no hard iron", "TiltMaze accel+mag"))
    return ups, attitudes


def csv_for(dataset, trial, data):
    """The trial in FilterAccuracy's CSV format, made once (CACHE/csv)."""
    path = os.path.join(CACHE, "csv9", trial + ".csv")
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(dataset.mat(trial)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        filters.write_csv(path + ".part", times_ns(len(data["acc"]), data["rate"]), data["acc"], data["gyr"],
                          data["mag"])
        os.replace(path + ".part", path)
    return path


def group_members(results, dataset):
    """(label, trials) per group of GROUPS that has trials in results."""
    for label, group in GROUPS:
        members = [t for t in results if group in dataset.trials[t]["groups"]]
        if members:
            yield label, members


def tables(results, headings, dataset):
    """The markdown tables: inclination per trial (after 2 s, then movement
    phase) and per group; heading per trial and per group; the runs without
    a gyroscope."""
    import numpy as np
    header = "| trial | " + " | ".join(NAMES) + " |\n|---|" + "---|" * len(NAMES) + "\n"
    out = ["## Inclination\n\nPer trial, after the first 2 s: RMS / max, degrees\n\n", header]
    for trial, figures in results.items():
        cells = (f"{figures[n]['rms_after_2s']:.2f} / {figures[n]['max_after_2s']:.1f}" for n in NAMES)
        out.append(f"| {short_name(trial)} | " + " | ".join(cells) + " |\n")
    out += ["\nPer trial, movement phase (BROAD's figure): RMS, degrees\n\n", header]
    for trial, figures in results.items():
        out.append(f"| {short_name(trial)} | " + " | ".join(f"{figures[n]['rms_movement']:.2f}" for n in NAMES) + " |\n")
    out += ["\nGroups, mean over their trials: movement RMS · RMS after 2 s / max after 2 s, degrees\n\n",
            "| group (trials) | " + " | ".join(NAMES) + " |\n|---|" + "---|" * len(NAMES) + "\n"]
    for label, members in group_members(results, dataset):
        cells = []
        for n in NAMES:
            mean = {k: np.mean([results[t][n][k] for t in members]) for k in results[members[0]][n]}
            cells.append(f"{mean['rms_movement']:.2f} · {mean['rms_after_2s']:.2f} / {mean['max_after_2s']:.1f}")
        out.append(f"| {label} ({len(members)}) | " + " | ".join(cells) + " |\n")
    out += ["\n## Heading (nine axes)\n\nRMS over the movement phase, degrees, after removing one constant per "
            "trial and filter (the circular mean of its heading error there: BROAD's x is not magnetic north, and "
            "the filters name north differently). TiltMaze 6D is the gyroscope's own heading, for scale; "
            "\"no hard iron\" is TiltMaze without learning an offset riding with the board while it turns; "
            "\"accel+mag\" is the compass of a board without a gyroscope, for scale.\n\n",
            "| trial | " + " | ".join(HEADING_NAMES) + " |\n|---|" + "---|" * len(HEADING_NAMES) + "\n"]
    for trial, figures in headings.items():
        out.append(f"| {short_name(trial)} | " + " | ".join(f"{figures[n]:.2f}" for n in HEADING_NAMES) + " |\n")
    out += ["\nGroups, mean over their trials, degrees\n\n",
            "| group (trials) | " + " | ".join(HEADING_NAMES) + " |\n|---|" + "---|" * len(HEADING_NAMES) + "\n"]
    for label, members in group_members(headings, dataset):
        out.append(f"| {label} ({len(members)}) | "
                   + " | ".join(f"{np.mean([headings[t][n] for t in members]):.2f}" for n in HEADING_NAMES) + " |\n")
    return "".join(out)


def mean_of(results, name, key="rms_after_2s"):
    import numpy as np
    return float(np.mean([f[name][key] for f in results.values()]))


def verdict(results, headings):
    """Why TiltMaze fails the gate (empty if it passes)."""
    import numpy as np
    reasons = []
    for trial, figures in results.items():
        ours, theirs = figures["TiltMaze"]["rms_after_2s"], figures["VQF online"]["rms_after_2s"]
        if ours > RMS_FACTOR * theirs:
            reasons.append(f"{short_name(trial)}: RMS after 2 s {ours:.2f}° > {RMS_FACTOR} × VQF online's {theirs:.2f}°")
    ours, theirs = mean_of(results, "TiltMaze"), mean_of(results, "VQF online")
    if ours > theirs:
        reasons.append(f"mean RMS after 2 s over the trials: {ours:.2f}° > VQF online's {theirs:.2f}°")
    for trial, figures in results.items():
        if figures["TiltMaze"]["max_after_2s"] > MAX_ERROR:
            reasons.append(f"{short_name(trial)}: error up to {figures['TiltMaze']['max_after_2s']:.1f}° "
                           f"(limit {MAX_ERROR:.0f}°)")
    for trial, figures in headings.items():
        ours, theirs = figures["TiltMaze 9D"], figures["VQF online 9D"]
        if ours > RMS_FACTOR * theirs + HEADING_SLACK:
            reasons.append(f"{short_name(trial)}: heading RMS {ours:.2f}° > {RMS_FACTOR} × VQF online 9D's "
                           f"{theirs:.2f}° + {HEADING_SLACK}°")
    ours = np.mean([f["TiltMaze 9D"] for f in headings.values()])
    theirs = np.mean([f["VQF online 9D"] for f in headings.values()])
    if ours > theirs:
        reasons.append(f"mean heading RMS over the trials: {ours:.2f}° > VQF online 9D's {theirs:.2f}°")
    for trial, figures in results.items():
        for key in ("rms_movement", "rms_after_2s"):
            if figures["TiltMaze 9D"][key] > figures["TiltMaze"][key]:
                reasons.append(f"{short_name(trial)}: inclination {key} with the magnetometer "
                               f"{figures['TiltMaze 9D'][key]:.3f}° > without {figures['TiltMaze'][key]:.3f}°")
    return reasons


def targets(results, headings):
    """Lines saying which of issue 33's targets are met, the gated ones and the rest."""
    import numpy as np
    heading9 = np.mean([f["TiltMaze 9D"] for f in headings.values()])
    plain = np.mean([f["TiltMaze 9D no hard iron"] for f in headings.values()])
    vqf = np.mean([f["VQF online 9D"] for f in headings.values()])
    offline = np.mean([f["VQF offline 9D"] for f in headings.values()])
    alone, helped = mean_of(results, "TiltMaze accel-only"), mean_of(results, "TiltMaze accel+mag")
    worse = [short_name(t) for t, f in results.items()
             if f["TiltMaze accel+mag"]["rms_after_2s"] > f["TiltMaze accel-only"]["rms_after_2s"]]
    outside = [short_name(t) for t, f in headings.items()
               if f["TiltMaze 9D"] > RMS_FACTOR * f["VQF online 9D"] + HEADING_SLACK]
    met = lambda ok: "met" if ok else "**not met**"
    return (f"\n## Targets\n\n"
            f"- Heading RMS (mean): TiltMaze 9D {heading9:.2f}°, VQF online 9D {vqf:.2f}°: {met(heading9 <= vqf)} (gated).\n"
            f"- The moonshot, offline VQF 9D's {offline:.2f}°: {met(heading9 <= offline)}.\n"
            f"- Heading RMS per trial within {RMS_FACTOR} × VQF online 9D's + {HEADING_SLACK}° (gated): {met(not outside)}"
            + (f" (outside: {', '.join(outside)})" if outside else "") + ".\n"
            f"- Without learning the board's offset (hard iron): {plain:.2f}° mean.\n"
            f"- Inclination with the magnetometer no worse than without, per trial: gated (the heading correction "
            f"turns about the vertical only).\n"
            f"- Without a gyroscope: accelerometer only {alone:.2f}°, with the magnetometer {helped:.2f}° (mean RMS "
            f"after 2 s); halved: {met(helped <= alone / 2)}; no trial worse: {met(not worse)}"
            + (f" (worse: {', '.join(worse)})" if worse else "") + ".\n")


def tiltmaze_source(tool):
    """Which filter the TiltMaze figures are for."""
    if tool is not None:
        built = datetime.datetime.fromtimestamp(os.path.getmtime(tool)).isoformat(" ", "minutes")
        return f"FilterAccuracy given with --tool, {tool}, built {built}"
    git = ["git", "-C", os.path.dirname(filters.PACKAGE)]
    commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(git + ["status", "--porcelain", "--", "Sources"], capture_output=True, text=True).stdout
    return f"FilterAccuracy built from commit {commit or '?'}" + (" with uncommitted changes in Sources/" if changed else "")


def plot(curves, path, title):
    """One panel per trial: error over time per filter, movement phases shaded.
    Each line is the worst error in each 0.2 s: the raw error swings through
    zero many times a second, and at 1600 px those dips hide everything else.
    Log scale: the filters differ by factors of ten."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import PIL.Image
    ticks = [0.1, 0.3, 1, 3, 10, 30, 100]
    names = len(next(iter(curves.values()))[0]) + 1
    # The legend takes a row under the title per four entries when they do not fit beside it.
    rows = 1 if names <= 6 else -(-names // 4)
    top = 0.3 + (0 if rows == 1 else 0.35 * rows)
    fig, axes = plt.subplots(len(curves), 1, figsize=(16, 3.3 * len(curves) + 0.3 + top), dpi=100, squeeze=False)
    for ax, (trial, (errors, movement, rate)) in zip(axes[:, 0], curves.items()):
        # Shade each run of movement samples.
        edges = np.flatnonzero(np.diff(np.concatenate([[0], movement.astype(np.int8), [0]]))) / rate
        for start, stop in zip(edges[::2], edges[1::2]):
            ax.axvspan(start, stop, color="0.93", lw=0, zorder=0)
        width = round(0.2 * rate)
        bins = len(movement) // width
        t = (np.arange(bins) + 0.5) * width / rate
        # Drawn in reverse so that TiltMaze, first in NAMES, lies on top.
        for name in reversed(list(errors)):
            worst = np.fmax.reduce(errors[name][:bins * width].reshape(bins, width), axis=1)   # NaN-free bins only
            ax.plot(t, worst, color=COLORS[name], ls=STYLES.get(name, "-"), lw=1.1, label=name)
        ax.set_yscale("log")
        ax.set_ylim(0.05, 180)
        ax.set_yticks(ticks, [f"{v:g}" for v in ticks])
        ax.minorticks_off()
        ax.set_xlim(0, len(movement) / rate)
        ax.set_title(short_name(trial).replace("_", " "), loc="left", fontsize=13, fontweight="bold")
        ax.set_ylabel("error (°)", fontsize=12)
        ax.grid(True, axis="y", color="0.8", lw=0.6)
        ax.tick_params(labelsize=11)
    axes[-1, 0].set_xlabel("time (s)", fontsize=12)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    handles.append(matplotlib.patches.Patch(color="0.93", label="movement phase"))
    fig.legend(handles[-2::-1] + handles[-1:], labels[::-1] + ["movement phase"], loc="upper right",
               bbox_to_anchor=(0.995, 1.0 - (0 if rows == 1 else 0.3 / fig.get_figheight())),
               ncol=len(handles) if rows == 1 else 4, fontsize=12, frameon=False)
    fig.suptitle(title, x=0.01, y=0.995, ha="left", va="top", fontsize=14)
    fig.tight_layout(rect=(0, 0, 1, 1 - top / fig.get_figheight()))
    # 128 colours look the same and take far fewer bytes (the file is kept in the repository); 64 merged
    # some of the nine-axis plot's lines.
    drawn = io.BytesIO()
    fig.savefig(drawn, format="png")
    plt.close(fig)
    PIL.Image.open(drawn).convert("RGB").quantize(128).save(path, optimize=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broad", default=os.environ.get("TILTMAZE_BROAD") or os.path.join(BUILD, "broad-repo"),
                        help="a checkout of dlaidig/broad or its git directory (default: $TILTMAZE_BROAD, "
                             "else .build/broad-repo)")
    parser.add_argument("--trials", help="comma-separated trial numbers (default: all present)")
    parser.add_argument("--plot-trials", default=DEFAULT_PLOT, help=f"trials to plot (default {DEFAULT_PLOT})")
    parser.add_argument("--plot-accelerometer-only", action="store_true", help="plot TiltMaze accel-only as well")
    parser.add_argument("--plot-heading-trials", default=DEFAULT_HEADING_PLOT,
                        help=f"trials whose heading error to plot (default {DEFAULT_HEADING_PLOT})")
    parser.add_argument("--tool", help="an already built FilterAccuracy (no swift build)")
    args = parser.parse_args()
    filters.ensure_venv()
    from importlib.metadata import version

    started = time.monotonic()
    dataset = open_broad(args.broad)
    missing = [number(t) for t in dataset.trials if t not in dataset.present]
    if missing:
        print(f"broad: {len(missing)} of BROAD's {len(dataset.trials)} trials are missing from {args.broad}: "
              f"{', '.join(missing)}; going on with the {len(dataset.present)} present", file=sys.stderr)
    trials = dataset.present
    if args.trials:
        wanted = args.trials.split(",")
        unknown = [w for w in wanted if w not in map(number, dataset.trials)]
        if unknown:
            parser.error(f"no trial numbered {', '.join(unknown)}")
        trials = [t for t in trials if number(t) in wanted]
    if not trials:
        print("broad: none of the trials asked for is present", file=sys.stderr)
        sys.exit(2)
    tool = args.tool or filters.build_tool()
    plotted = args.plot_trials.split(",")
    heading_plotted = args.plot_heading_trials.split(",")

    results, headings, curves, heading_curves, seconds = {}, {}, {}, {}, {}
    for trial in trials:
        print(f"broad: {trial}", file=sys.stderr)
        data = dataset.load(trial)
        rate = data["rate"]
        ups, attitudes = run_filters(tool, csv_for(dataset, trial, data), data, seconds)
        truth = filters.up_from(data["quat"])
        errors = {name: filters.inclination(ups[name], truth) for name in NAMES}
        results[trial] = {name: metrics(errors[name], data["movement"], rate) for name in NAMES}
        turns = {name: filters.heading(attitudes[name], data["quat"], data["movement"]) for name in HEADING_NAMES}
        headings[trial] = {name: rms for name, (_, rms) in turns.items()}
        if number(trial) in plotted:
            shown = [n for n in ("TiltMaze", "TiltMaze accel-only", "VQF online", "VQF offline", "Fusion")
                     if n != "TiltMaze accel-only" or args.plot_accelerometer_only]
            curves[trial] = ({n: errors[n] for n in shown}, data["movement"], rate)
        if number(trial) in heading_plotted:
            heading_curves[trial] = ({n: abs(turns[n][0]) for n in HEADING_PLOTTED}, data["movement"], rate)

    report = (f"Inclination and heading error on BROAD (Laidig et al., Data 6(7), 2021, doi:10.3390/data6070072, CC-BY-4.0), "
              f"{datetime.date.today().isoformat()}, made by `accuracy/broad.py`:\n\n"
              f"- trials {', '.join(map(number, trials))}"
              + (f" (missing from the copy used: {', '.join(missing)})" if missing else "") + "\n"
              f"- vqf {version('vqf')}, imufusion {version('imufusion')} (Fusion's settings: filters.py)\n"
              f"- TiltMaze: {tiltmaze_source(args.tool)}\n"
              f"- every filter starts fresh at each trial's first sample\n\n"
              + tables(results, headings, dataset) + targets(results, headings))
    reasons = verdict(results, headings)
    rule = (f"inclination RMS after 2 s within {RMS_FACTOR} × VQF online's per trial and no more than it on "
            f"average, never over {MAX_ERROR:.0f}° after 2 s, and no worse with the magnetometer; heading RMS "
            f"within {RMS_FACTOR} × VQF online 9D's + {HEADING_SLACK}° per trial and no more than it on average")
    gate = (f"TiltMaze fails the gate ({rule}):\n" + "".join(f"- {r}\n" for r in reasons)) if reasons else \
        f"TiltMaze passes the gate: {rule}.\n"
    print(report)
    print(gate, end="")
    with open(RESULTS, "w") as f:
        f.write("# TiltMaze on BROAD\n\n" + report + "\n" + gate)
    for shown, path, title, asked in ((curves, PLOT, "inclination", args.plot_trials),
                                      (heading_curves, HEADING_PLOT, "heading", args.plot_heading_trials)):
        if shown:
            plot(shown, path, f"BROAD: {title} error, worst in each 0.2 s")
        else:
            print(f"broad: none of the trials to plot ({asked}) was run; {path} left as it was", file=sys.stderr)
    print(f"broad: {len(trials)} trials in {time.monotonic() - started:.0f} s ("
          + ", ".join(f"{n} {t:.1f} s" for n, t in seconds.items()) + ")", file=sys.stderr)
    sys.exit(1 if reasons else 0)


if __name__ == "__main__":
    main()
