#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Cuts the BROAD windows the Swift tests measure the attitude filter on.

Writes Tests/Fixtures/broad/: one .broadwin file per window (the 8 s before
a trial's movement phase starts, then its first 24 s), reference.json
(VQF's and Fusion's inclination errors on exactly those samples),
BROAD's LICENSE and a README.md describing the format. See broad.py for the
dataset and where to get it.

    cd Benchmarks && accuracy/broad_windows.py [--broad DIR]

Every file is read back and compared with the source before the reference
figures are computed from what was read, so the Swift tests and this script
measure on identical numbers.
"""
import argparse
import json
import math
import os
import struct
import sys

import broad
import filters

OUT = os.path.join(os.path.dirname(filters.PACKAGE), "Tests", "Fixtures", "broad")
# Fast rotation, translations, combined, tapping, vibration, a stationary
# magnet and one attached at 2 cm (the worst trial for VQF's nine axes after
# the 1 cm one, whose window holds little but the magnet).
TRIALS = ("07", "10", "15", "16", "21", "24", "26", "29", "33")
BEFORE, AFTER = 8.0, 24.0   # seconds around the first movement sample
MAGIC = "TILTMAZE BROAD WINDOW 2"
NO_REFERENCE = -32768        # all four quaternion fields: the markers were lost
QUATERNION_SCALE = 32767
# Little-endian and packed: 9 × float32, 4 × int16, 1 × uint8 = 45 bytes.
RECORD = [("imu", "<f4", (9,)), ("quaternion", "<i2", (4,)), ("movement", "u1")]
RECORD_SIZE = 45
REFERENCE_FILTERS = {"VQF online": filters.run_vqf, "VQF offline": filters.run_vqf_offline,
                     "Fusion": filters.run_fusion}
# Nine axes: their heading error (filters.heading), RMS over the movement phase.
HEADING_FILTERS = {"VQF online 9D": filters.run_vqf_9d, "VQF offline 9D": filters.run_vqf_offline_9d,
                   "Fusion 9D": filters.run_fusion_9d}
# A window whose reference is missing for more of its samples than this is worth a warning.
NAN_WARNING = 0.02


def header(trial, first, rate, count):
    return f"{MAGIC}\ntrial: {trial}\nfirst_sample: {first}\nrate_hz: {rate!r}\nsamples: {count}\n\n"


def encode(trial, first, rate, data, count):
    """The bytes of a window file."""
    import numpy as np
    window = slice(first, first + count)
    records = np.zeros(count, dtype=np.dtype(RECORD))
    records["imu"] = np.column_stack([data["acc"][window], data["gyr"][window], data["mag"][window]]).astype(np.float32)
    quaternion = data["quat"][window]
    lost = np.isnan(quaternion).any(axis=1)
    records["quaternion"] = np.where(lost[:, None], NO_REFERENCE,
                                     np.rint(np.nan_to_num(quaternion) * QUATERNION_SCALE)).astype(np.int16)
    records["movement"] = data["movement"][window]
    return header(trial, first, rate, count).encode("ascii") + records.tobytes()


def read_window(path):
    """A window file as the Swift tests read it: header fields, acc, gyr and
    mag (float64 of the stored float32), reference quaternion (NaN where
    lost), movement."""
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    end = raw.index(b"\n\n")
    lines = raw[:end].decode("ascii").split("\n")
    if lines[0] != MAGIC:
        raise ValueError(f"{path}: first line {lines[0]!r}, not {MAGIC!r}")
    header = dict(line.split(": ", 1) for line in lines[1:])
    count = int(header["samples"])
    body = raw[end + 2:]
    dtype = np.dtype(RECORD)
    if dtype.itemsize != RECORD_SIZE or len(body) != count * RECORD_SIZE:
        raise ValueError(f"{path}: {len(body)} bytes of records for {count} samples of {dtype.itemsize}")
    records = np.frombuffer(body, dtype=dtype)
    imu = records["imu"].astype(float)
    quaternion = records["quaternion"].astype(float) / QUATERNION_SCALE
    quaternion[(records["quaternion"] == NO_REFERENCE).all(axis=1)] = np.nan
    return {"trial": header["trial"], "first_sample": int(header["first_sample"]), "rate": float(header["rate_hz"]),
            "acc": imu[:, :3], "gyr": imu[:, 3:6], "mag": imu[:, 6:], "quat": quaternion,
            "movement": records["movement"].astype(bool)}


def check(path, window, trial, first, rate, data):
    """Raises if the file read back is not the source within its rounding."""
    import numpy as np
    count = len(window["acc"])
    source = slice(first, first + count)
    problems = []
    # RECORD both writes and reads, so a slip in it would pass the round trip:
    # decode a few records with struct, from the layout the README documents.
    with open(path, "rb") as f:
        raw = f.read()
    body = raw[raw.index(b"\n\n") + 2:]
    for i in (0, count // 2, count - 1):
        fields = struct.unpack_from("<9f4hB", body, RECORD_SIZE * i)
        k = first + i
        q = data["quat"][k]
        expected = (tuple(np.float32(np.concatenate([data["acc"][k], data["gyr"][k], data["mag"][k]])))
                    + ((NO_REFERENCE,) * 4 if np.isnan(q).any() else tuple(int(round(c * QUATERNION_SCALE)) for c in q))
                    + (int(data["movement"][k]),))
        if fields != expected:
            problems.append(f"record {i} as struct '<9f4hB' decodes it")
    if (window["trial"], window["first_sample"], window["rate"]) != (trial, first, rate):
        problems.append("header")
    for name in ("acc", "gyr", "mag"):
        # float32 keeps 24 bits: half a unit in the last place is 2^-24 of the value.
        if np.any(np.abs(window[name] - data[name][source]) > np.abs(data[name][source]) * 2.0 ** -24):
            problems.append(name)
    truth = data["quat"][source]
    if not np.array_equal(np.isnan(window["quat"]), np.isnan(truth).any(axis=1)[:, None].repeat(4, axis=1)):
        problems.append("lost reference samples")
    elif np.nanmax(np.abs(window["quat"] - truth)) > 0.5 / QUATERNION_SCALE + 1e-12:
        problems.append("quat")
    if not np.array_equal(window["movement"], data["movement"][source]):
        problems.append("movement")
    if problems:
        raise SystemExit(f"broad_windows: {trial}: the file read back differs from the source in "
                         f"{', '.join(problems)}")


def reference(window):
    """Window statistics and each reference filter's figures, started fresh at the window's first sample."""
    import numpy as np
    truth = filters.up_from(window["quat"])
    out = {"samples": len(window["acc"]), "movement_samples": int(window["movement"].sum()),
           "samples_without_reference": int(np.isnan(truth).any(axis=1).sum())}
    for name, run in REFERENCE_FILTERS.items():
        errors = filters.inclination(run(window["acc"], window["gyr"], window["rate"]), truth)
        out[name] = {k: round(v, 3) for k, v in broad.metrics(errors, window["movement"], window["rate"]).items()}
    for name, run in HEADING_FILTERS.items():
        _, rms = filters.heading(run(window["acc"], window["gyr"], window["mag"], window["rate"]), window["quat"],
                                 window["movement"])
        out[name] = {"heading_rms_movement": round(rms, 3)}
    return out


def readme(references, rate, example):
    """The folder's README: source, licence, format (with one window's header as
    the example) and the reference figures."""
    from importlib.metadata import version
    rows = "".join(
        f"| `{name}` | {r['samples']} | {r['movement_samples']} | {r['samples_without_reference']} | "
        + " | ".join(f"{r[f]['rms_movement']:.3f} · {r[f]['rms_after_2s']:.3f} / {r[f]['max_after_2s']:.2f}"
                     for f in REFERENCE_FILTERS) + " |\n"
        for name, r in references.items())
    heading_rows = "".join(f"| `{name}` | " + " | ".join(f"{r[f]['heading_rms_movement']:.3f}" for f in HEADING_FILTERS)
                           + " |\n" for name, r in references.items())
    return f"""# BROAD windows

Nine 32 s windows of real IMU recordings with an optical reference, for the
tests that measure TiltMaze's attitude filter on real data: each starts 8 s
before a trial's movement phase (the IMU nearly still, turning at 10 °/s at
most) and ends 24 s into it.
They are cut from

> D. Laidig, M. Caruso, A. Cereatti, T. Seel. **BROAD — A Benchmark for Robust
> Inertial Orientation Estimation.** *Data* 6 (7): 72, 2021.
> <https://doi.org/10.3390/data6070072> — <https://github.com/dlaidig/broad>

IMU: myon aktos-t at {rate:.3f} Hz; reference: Optitrack
motion capture. BROAD is licensed under the Creative Commons Attribution 4.0
International licence (CC-BY-4.0, [LICENSE](LICENSE), the dataset's own copy).
Changes made here: only the windows below are kept, and of each sample only the
accelerometer, gyroscope, magnetometer, reference orientation and movement flag
(the reference position is left out); the IMU values are rounded
to float32 (a relative error of 6·10⁻⁸, far below the sensor's resolution of
about 0.5 mg, 0.06 °/s and 0.1 µT) and the reference quaternion to steps of 1/32767.
The values are otherwise unchanged.

## Files

- `NN_name.broadwin`: one window (names: trial number and motion, without
  BROAD's "undisturbed"/"disturbed").
- `reference.json`: per window file, its sample count, movement-sample count,
  samples without a reference, and for "VQF online", "VQF offline" and "Fusion"
  the inclination error in degrees (3 decimals): `rms_movement`, `rms_after_2s`,
  `max_after_2s`; for "VQF online 9D", "VQF offline 9D" and "Fusion 9D" (with
  the magnetometer) the heading error: `heading_rms_movement`.
- `LICENSE`: BROAD's licence, CC-BY-4.0.

## Format of a .broadwin file

An ASCII header of `key: value` lines ended by an empty line (the header ends
at the first `\\n\\n`), for instance

```
{example}```

- first line exactly `{MAGIC}`;
- `trial:` BROAD's full trial name;
- `first_sample:` index in the trial of the window's first sample;
- `rate_hz:` the sampling rate, Python's repr of the double (parses back exactly);
- `samples:` the number of records.

Then `samples` records of 45 bytes, little-endian, packed:

| bytes | type | field |
|---|---|---|
| 0–11 | 3 × float32 | accelerometer x y z, m/s² (BROAD's `imu_acc`) |
| 12–23 | 3 × float32 | gyroscope x y z, rad/s (`imu_gyr`) |
| 24–35 | 3 × float32 | magnetometer x y z, µT (`imu_mag`) |
| 36–43 | 4 × int16 | reference orientation w x y z × 32767, rounded (`opt_quat`: IMU frame → earth frame, z up); all four −32768 where the markers were lost (NaN in BROAD) |
| 44 | uint8 | 1 in BROAD's movement phase (`movement`), else 0 |

(Version 1, without the magnetometer, had 33-byte records.)

Sample i is at round(i·10⁹ / rate_hz) ns from the window's start. The true up
in the IMU frame is the reference quaternion's conjugate applied to (0, 0, 1);
divide by the quaternion's squared norm, or normalise it first.

## Reference figures

Inclination error: the angle between a filter's up and the reference's, in
degrees, skipping samples without a reference (as BROAD does). Every filter
starts fresh at the window's first sample and runs on exactly the float32 and
int16 values in the file. `rms_movement` is the RMS over samples with the
movement flag set; `rms_after_2s` and `max_after_2s` cover samples from
index ceil(2·rate_hz) = {math.ceil(2 * rate)} on. VQF: PyPI `vqf`, default settings (`VQF(Ts).updateBatch`,
and `offlineVQF`, which sees the whole window, a bound rather than a rival);
Fusion: PyPI `imufusion`, `Ahrs` after `Bias` with the settings in
`Benchmarks/accuracy/filters.py`. Made with vqf {version("vqf")} and imufusion {version("imufusion")}.

Cells: movement RMS · RMS after 2 s / max after 2 s, degrees.

| window | samples | in movement | no reference | VQF online | VQF offline | Fusion |
|---|---|---|---|---|---|---|
{rows}
Heading error (nine axes): the turn about the vertical between a filter's
attitude and the reference's, less its circular mean over the movement phase
(the reference's x is not magnetic north, and filters name north
differently), RMS over the movement phase, degrees; see `filters.heading` in
`Benchmarks/accuracy/filters.py`. VQF with its magnetometer (`quat9D`),
Fusion's `Ahrs.update` with magnetic rejection 10°.

| window | VQF online 9D | VQF offline 9D | Fusion 9D |
|---|---|---|---|
{heading_rows}
## Remaking them

From a checkout of dlaidig/broad (or its git directory):

```sh
cd Benchmarks && accuracy/broad_windows.py --broad DIR
```

The script reads every file back and compares it with the source before it
computes the figures from what it read.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broad", default=os.environ.get("TILTMAZE_BROAD") or os.path.join(broad.BUILD, "broad-repo"),
                        help="a checkout of dlaidig/broad or its git directory (default: $TILTMAZE_BROAD, "
                             "else .build/broad-repo)")
    args = parser.parse_args()
    filters.ensure_venv()
    import numpy as np

    dataset = broad.open_broad(args.broad)
    chosen = [t for t in dataset.trials if broad.number(t) in TRIALS]
    absent = [broad.number(t) for t in chosen if t not in dataset.present]
    if absent:
        sys.exit(f"broad_windows: trials {', '.join(absent)} are missing from {args.broad}")
    licence = dataset.text("LICENSE")
    if not licence.startswith("Attribution 4.0 International") or \
            "Creative Commons Attribution 4.0 International Public License" not in licence:
        sys.exit(f"broad_windows: {args.broad}/LICENSE is not the CC-BY-4.0 text")

    os.makedirs(OUT, exist_ok=True)
    references, headers = {}, []
    for trial in chosen:
        data = dataset.load(trial)
        rate = data["rate"]
        onset = int(np.argmax(data["movement"]))
        first, count = onset - round(BEFORE * rate), round(BEFORE * rate) + round(AFTER * rate)
        if first < 0 or first + count > len(data["acc"]):
            sys.exit(f"broad_windows: {trial}: the window {first}..{first + count} leaves the trial")
        name = broad.short_name(trial) + ".broadwin"
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(encode(trial, first, rate, data, count))
        headers.append(header(trial, first, rate, count))
        window = read_window(path)
        check(path, window, trial, first, rate, data)
        references[name] = reference(window)
        lost = references[name]["samples_without_reference"]
        print(f"broad_windows: {name}: samples {first}..{first + count - 1} of {trial}, "
              f"{lost} without reference", file=sys.stderr)
        if lost > NAN_WARNING * count:
            print(f"broad_windows: warning: {name} has no reference for {lost / count:.0%} of its samples",
                  file=sys.stderr)

    with open(os.path.join(OUT, "reference.json"), "w") as f:
        json.dump(references, f, indent=2)
        f.write("\n")
    with open(os.path.join(OUT, "LICENSE"), "w") as f:
        f.write(licence)
    import broad_flag_windows   # its section on flags/, which broad_flag_windows.py cuts
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write(readme(references, rate, headers[0]) + broad_flag_windows.readme_section())
    size = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print(f"broad_windows: {len(references)} windows in {OUT}, {size / 1e6:.2f} MB in all", file=sys.stderr)


if __name__ == "__main__":
    main()
