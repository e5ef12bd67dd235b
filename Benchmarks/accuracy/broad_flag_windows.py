#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Cuts the BROAD windows the Swift tests check the rest and magnetic-
disturbance flags on, with what VQF's flags say about them.

Writes Tests/Fixtures/broad/flags/: two .broadwin files (broad_windows.py's
format, cut at a chosen start rather than around a movement onset) and
reference.json (per 0.5 s bin: the fraction of samples with VQF's
restDetected and magDistDetected set, the mean field norm, the movement
fraction), and puts its section into Tests/Fixtures/broad/README.md.
broad_windows.py writes the same section when it rewrites that README. See
broad.py for the dataset and where to get it.

    cd Benchmarks && accuracy/broad_flag_windows.py [--broad DIR]

Every file is read back and compared with the source, and VQF runs on what
was read, so the Swift tests and this script see identical numbers. The
script also checks that each window holds what README.md says it holds (the
still breaks, the magnet pass) and stops if not.
"""
import argparse
import json
import os
import sys

import broad
import broad_windows
import filters

OUT = os.path.join(broad_windows.OUT, "flags")
README = os.path.join(broad_windows.OUT, "README.md")
HEADING = "## Windows for the rest and magnetic-disturbance flags (`flags/`)"
LENGTH = 32.0   # seconds
BIN = 0.5       # seconds per bin of reference.json
RATE = 2000 / 7   # BROAD's sampling rate, 285.714 Hz (checked against each trial's)
# (trial, suffix of the file's name, start in the trial in seconds, kind, why: for README.md)
WINDOWS = (
    ("05_undisturbed_slow_rotation_with_breaks_B", "", 120.5, "breaks",
     "BROAD's slow rotation with breaks turns in four phases (35–68, 76–101, 125–147 and 157–179 s) with "
     "still breaks of 8, 24 and 10 s between them, so no 32 s window holds two whole breaks (break, rotation "
     "and break take 56 s at least). This one holds the whole third rotation with a still stretch on either "
     "side: still until 124.6 s (4.1 s, the end of the 24 s break; a fresh filter gets 1.5–2 s of it to "
     "settle before it can call rest), slow rotation (0.5 s means of the gyroscope norm mostly 20–90 °/s) "
     "until 147.1 s, then still to the end (5.4 s, the start of the 10 s break before the fourth rotation). "
     "Picked from the gyroscope norm: still means its 0.2 s mean below 2 °/s (VQF's rest threshold); the "
     "start is 4 s before that rotation's onset."),
    ("28_disturbed_stationary_magnet_A", "_late", 120.0, "magnet",
     "The IMU turns fast (0.5 s means of the gyroscope norm mostly 300–480 °/s, slowing to 40–100 °/s from "
     "141 s) in the Earth's field only (norm 41–49 µT, 0.5 s means 43–47 µT) for 23.7 s, so a filter can "
     "learn the field, then passes the stationary magnet: the norm dips to about 36 µT (143.8–144.1 s), "
     "rises to 71–77 µT while the IMU is held nearly still (median 5 °/s) from 144.3 s, and falls back to "
     "the Earth's 43.6 µT at 146.5–146.65 s, where BROAD's movement phase ends; the IMU stays still to the "
     "end (5.4 s). The field norm's departure from the window's median by more than 10 % (VQF's threshold) "
     "marks the pass. Started at 120 s rather than 118 s to leave 5 s after the pass; 23.7 s of "
     "undisturbed turning remain before it."),
)
STILL_GYR = 2.0        # °/s: VQF's restThGyr
STILL_SMOOTH = 0.2     # seconds of gyroscope norm averaged before the threshold
MIN_BREAK = 2.0        # seconds
DISTURBED = 0.1        # relative field-norm deviation from the window's median: VQF's magNormTh
MERGE = 0.5            # seconds: disturbed stretches closer than this are one pass
MIN_BEFORE = 20.0      # seconds of undisturbed turning (movement phase) before the pass
MIN_AFTER = 2.0        # seconds of undisturbed field after it


def name(trial, suffix):
    return broad.short_name(trial) + suffix + ".broadwin"


def runs(mask, rate, minimum):
    """(first, end) sample indices of the runs of True at least minimum seconds long."""
    import numpy as np
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2]) if b - a >= minimum * rate]


def still_breaks(window):
    """Runs of at least MIN_BREAK seconds with the gyroscope norm's STILL_SMOOTH s mean below STILL_GYR."""
    import numpy as np
    rate = window["rate"]
    norm = np.degrees(np.linalg.norm(window["gyr"], axis=1))
    width = round(STILL_SMOOTH * rate)
    smooth = np.convolve(norm, np.ones(width) / width, mode="same")
    return runs(smooth < STILL_GYR, rate, MIN_BREAK)


def disturbed(window):
    """Runs where the field norm is off the window's median by more than DISTURBED, runs closer than
    MERGE joined."""
    import numpy as np
    rate = window["rate"]
    norm = np.linalg.norm(window["mag"], axis=1)
    mask = np.abs(norm - np.median(norm)) > DISTURBED * np.median(norm)
    joined = []
    for a, b in runs(mask, rate, 0.0):
        if joined and a - joined[-1][1] < MERGE * rate:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined


def requirements(kind, window):
    """What README.md says the window holds, checked: a list of problems."""
    rate, count = window["rate"], len(window["acc"])
    moving = window["movement"]
    breaks, passes = still_breaks(window), disturbed(window)
    problems = []
    if kind == "breaks":
        if passes:
            problems.append(f"the field is disturbed at {[(a / rate, b / rate) for a, b in passes]} s")
        if len(breaks) < 2:
            problems.append(f"{len(breaks)} still breaks of {MIN_BREAK} s or more")
        elif breaks[0][0] != 0 or not 2 * rate <= breaks[0][1] <= 6 * rate:
            problems.append("it does not start still, a few seconds before a rotation")
        elif not all(moving[b:c].any() for (_, b), (c, _) in zip(breaks, breaks[1:])):
            problems.append("no movement between two breaks")
    elif kind == "magnet":
        if len(passes) != 1:
            problems.append(f"{len(passes)} disturbed stretches, not one")
        else:
            a, b = passes[0]
            before = max(0, a - round(MIN_BEFORE * rate))
            if a < MIN_BEFORE * rate or not moving[before:a].all():
                problems.append(f"the pass starts {a / rate:.2f} s in, not after {MIN_BEFORE} s of turning")
            if count - b < MIN_AFTER * rate:
                problems.append(f"the pass ends {(count - b) / rate:.2f} s before the window's end")
    return problems, breaks, passes


def bins(count, rate):
    """First sample of each BIN-second bin, and the end: round(k·BIN·rate_hz)."""
    edges = [round(k * BIN * rate) for k in range(int(count / (BIN * rate) + 1e-9) + 1)]
    if edges[-1] != count:
        raise SystemExit(f"broad_flag_windows: {count} samples are not whole {BIN} s bins")
    return edges


def vqf_flags(window):
    """VQF online with its magnetometer, default parameters, fresh at the window's first sample (as
    filters.run_vqf_9d runs it): its per-sample restDetected and magDistDetected batch outputs."""
    import numpy as np
    from vqf import VQF
    gyr, acc, mag = (np.ascontiguousarray(window[k], dtype=float) for k in ("gyr", "acc", "mag"))
    vqf = VQF(1.0 / window["rate"])
    out = vqf.updateBatch(gyr, acc, mag)
    rest, dist = np.asarray(out["restDetected"], bool), np.asarray(out["magDistDetected"], bool)
    # The batch outputs are the state after each sample: the last must be what the getters say now.
    if (rest[-1], dist[-1]) != (vqf.getRestDetected(), vqf.getMagDistDetected()):
        raise SystemExit("broad_flag_windows: VQF's batch outputs disagree with its getters")
    return rest, dist


def summary(window, first, start):
    """The window's entry in reference.json."""
    import numpy as np
    from importlib.metadata import version
    rate, count = window["rate"], len(window["acc"])
    edges = bins(count, rate)
    rest, dist = vqf_flags(window)

    def per_bin(values, decimals):
        sums = np.add.reduceat(np.asarray(values, dtype=float), edges[:-1])
        return [round(float(v), decimals) for v in sums / np.diff(edges)]

    accepted = np.flatnonzero(~dist)
    return {"trial": window["trial"], "first_sample": first, "start_s": start, "samples": count,
            "bin_first_sample": edges[:-1],
            "vqf_rest_detected": per_bin(rest, 2),
            "vqf_mag_dist_detected": per_bin(dist, 2),
            "field_norm_ut": per_bin(np.linalg.norm(window["mag"], axis=1), 1),
            "movement": per_bin(window["movement"], 2),
            "vqf_first_field_sample": int(accepted[0]) if len(accepted) else None}, version("vqf")


def dumps(value, indent=0):
    """JSON with two-space indents, lists of numbers on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    return json.dumps(value)


def readme_section():
    """The README.md section on flags/ (from the constants above only: broad_windows.py writes it too)."""
    import textwrap
    items = "".join(textwrap.fill(f"- `flags/{name(trial, suffix)}`: `{trial}` from {start:.1f} s (sample "
                                  f"{round(start * RATE)}) to {start + LENGTH:.1f} s. {why}", width=80,
                                  subsequent_indent="  ", break_long_words=False, break_on_hyphens=False) + "\n"
                    for trial, suffix, start, _, why in WINDOWS)
    return f"""
{HEADING}

Two more {LENGTH:.0f} s windows in the same format, in `flags/`, for the tests that
set TiltMaze's `restDetected` and `magneticDisturbance` beside VQF's
`restDetected` and `magDistDetected` (open them as
`BroadWindow("flags/NAME.broadwin")`). They are cut at a chosen start, not
around a movement onset, are not among the windows above (`BroadWindow.names()`
lists the parent folder only) and have no inclination figures. BROAD's
licence ([LICENSE](LICENSE)) and the changes listed above apply to them too.

{items}- `flags/reference.json`: `bin_seconds` ({BIN}), `vqf_version`, `vqf_call`, and
  per window file under `windows`: `trial`, `first_sample`, `start_s`,
  `samples`, and per {BIN} s bin (bin k holds samples round(k·{BIN}·rate_hz) up to
  the next bin's first, listed in `bin_first_sample`): `vqf_rest_detected` and
  `vqf_mag_dist_detected`, the fraction of the bin's samples with VQF's flag
  set (2 decimals); `field_norm_ut`, the mean of the samples' field norms as
  stored (µT, 1 decimal); `movement`, the fraction in BROAD's movement phase
  (1: all, 0: none; 2 decimals). `vqf_first_field_sample` is the first sample
  where `magDistDetected` is false: VQF starts with no reference field and
  reports a disturbance until it has accepted one (a field steady for
  `magNewFirstTime` = 5 s while turning at `magNewMinGyr` = 20 °/s or more).
  VQF: PyPI `vqf`, `VQF(1/rate_hz).updateBatch(gyr, acc, mag)` with default
  parameters, fresh at the window's first sample, on the values in the file
  (as "VQF online 9D" above); the flags are its batch outputs `restDetected`
  and `magDistDetected`, the state after each sample.

Cut by `Benchmarks/accuracy/broad_flag_windows.py` (broad_windows.py leaves
this folder alone but writes this section into the README it rewrites):

```sh
cd Benchmarks && accuracy/broad_flag_windows.py --broad DIR
```

It reads every file back and compares it with the source, checks that each
window holds what is described above (the still breaks by the gyroscope norm,
the single magnet pass by the field norm) and runs VQF on what it read.
"""


def write_readme():
    """README.md with this section in place of any earlier one (it is the last section)."""
    with open(README) as f:
        text = f.read()
    at = text.find("\n" + HEADING)
    if at >= 0:
        text = text[:at + 1]
    with open(README, "w") as f:
        f.write(text.rstrip("\n") + "\n" + readme_section())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broad", default=os.environ.get("TILTMAZE_BROAD") or os.path.join(broad.BUILD, "broad-repo"),
                        help="a checkout of dlaidig/broad or its git directory (default: $TILTMAZE_BROAD, "
                             "else .build/broad-repo)")
    args = parser.parse_args()
    filters.ensure_venv()
    from importlib.metadata import version

    dataset = broad.open_broad(args.broad)
    for trial, *_ in WINDOWS:
        if trial not in dataset.present:
            sys.exit(f"broad_flag_windows: trial {trial} is missing from {args.broad}")

    os.makedirs(OUT, exist_ok=True)
    windows = {}
    for trial, suffix, start, kind, _ in WINDOWS:
        data = dataset.load(trial)
        rate = data["rate"]
        if abs(rate - RATE) > 1e-9:
            sys.exit(f"broad_flag_windows: {trial} is sampled at {rate} Hz, not {RATE} (README.md's sample numbers)")
        first, count = round(start * rate), round(LENGTH * rate)
        if first + count > len(data["acc"]):
            sys.exit(f"broad_flag_windows: {trial}: the window {first}..{first + count} leaves the trial")
        file = name(trial, suffix)
        path = os.path.join(OUT, file)
        with open(path, "wb") as f:
            f.write(broad_windows.encode(trial, first, rate, data, count))
        window = broad_windows.read_window(path)
        broad_windows.check(path, window, trial, first, rate, data)
        problems, breaks, passes = requirements(kind, window)
        spans = lambda stretches: ", ".join(f"{a / rate:.2f}–{b / rate:.2f}" for a, b in stretches) or "none"
        print(f"broad_flag_windows: {file}: samples {first}..{first + count - 1} of {trial} "
              f"({start:.2f}–{start + LENGTH:.2f} s); still breaks (s in the window) {spans(breaks)}; "
              f"field disturbed {spans(passes)}", file=sys.stderr)
        if problems:
            sys.exit(f"broad_flag_windows: {file} does not hold what README.md says: {'; '.join(problems)}")
        windows[file], vqf_version = summary(window, first, start)

    reference = {"bin_seconds": BIN, "vqf_version": vqf_version,
                 "vqf_call": "VQF(1 / rate_hz).updateBatch(gyr, acc, mag), default parameters, fresh at the "
                             "window's first sample; its batch outputs restDetected and magDistDetected",
                 "windows": windows}
    with open(os.path.join(OUT, "reference.json"), "w") as f:
        f.write(dumps(reference) + "\n")
    write_readme()
    size = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print(f"broad_flag_windows: {len(windows)} windows and reference.json in {OUT}, {size / 1e6:.2f} MB "
          f"(vqf {version('vqf')})", file=sys.stderr)


if __name__ == "__main__":
    main()
