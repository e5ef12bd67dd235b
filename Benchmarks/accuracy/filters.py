# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The filters the accuracy scripts compare, run on the same samples.

Shared by compare.py (simulated trajectories), broad.py (the BROAD recordings)
and broad_windows.py (the BROAD test fixtures). Every run_* function takes the
accelerometer (m/s², N×3) and gyroscope (rad/s, N×3) in the board frame and
returns the filter's "up" in the board frame per sample (N×3, not necessarily
unit length: compare them by angle).

numpy and the filter packages are imported inside the functions: the scripts
start under whatever python3 is at hand and re-run themselves in the venv
(ensure_venv) before they need them.
"""
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
VENV = os.path.join(PACKAGE, ".build", "accuracy-venv")
G = 9.80665


def ensure_venv():
    """Re-runs the calling script inside a venv holding vqf, imufusion, numpy,
    scipy and matplotlib (made from PyPI the first time)."""
    python = os.path.join(VENV, "bin", "python")
    if sys.prefix == VENV:
        return
    if not os.path.exists(python):
        print("accuracy: making a venv with vqf, imufusion, numpy, scipy and matplotlib (PyPI) in", VENV,
              file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "vqf", "imufusion", "numpy", "scipy", "matplotlib"],
                       check=True)
    os.execv(python, [python] + sys.argv)


def build_tool():
    """Builds FilterAccuracy (release) and returns its path."""
    # The root package exports MotionCore to the benchmarks' package only with this set.
    subprocess.run(["swift", "build", "-c", "release", "--product", "FilterAccuracy", "--package-path", PACKAGE],
                   check=True, stdout=subprocess.DEVNULL, env={**os.environ, "TILTMAZE_BENCHMARKS": "1"})
    return os.path.join(PACKAGE, ".build", "release", "FilterAccuracy")


def write_csv(path, t_ns, acc, gyr, mag=None):
    """The trajectory file FilterAccuracy reads (with the magnetometer's
    columns, µT, when mag is given). repr keeps every double exact, so the
    tool sees the very numbers the Python filters get."""
    import numpy as np
    rows = np.column_stack([acc, gyr] + ([] if mag is None else [mag])).tolist()
    with open(path, "w") as f:
        f.write("t_ns,ax,ay,az,gx,gy,gz" + ("" if mag is None else ",mx,my,mz") + "\n")
        f.write("".join(f"{t}," + ",".join(map(repr, r)) + "\n" for t, r in zip(np.asarray(t_ns).tolist(), rows)))


def run_tiltmaze(tool, csv, options=()):
    """TiltMaze's filter over a file from write_csv (["--accelerometer-only"]
    for the path of a sensor without a gyroscope): N×7, per sample "up" in
    the board frame, then the attitude quaternion w x y z (options: see
    Tools/FilterAccuracy/main.swift)."""
    import numpy as np
    out = subprocess.run([tool, *options, csv], check=True, capture_output=True, text=True).stdout
    return np.loadtxt(io.StringIO(out), delimiter=",", ndmin=2)


def up_from(quaternions):
    """Up in the board frame, R(q)^T·e_z, for board→earth quaternions (w, x, y, z)
    as rows. The third row of R scaled by |q|², so rounded quaternions need no
    normalising first."""
    import numpy as np
    w, x, y, z = np.asarray(quaternions, dtype=float).T
    return np.column_stack([2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z])


def run_vqf(acc, gyr, rate):
    """VQF (Laidig & Seel) as it runs on a device, default settings (rest and
    motion gyroscope bias estimation on)."""
    import numpy as np
    from vqf import VQF
    gyr, acc = (np.ascontiguousarray(a, dtype=float) for a in (gyr, acc))
    return up_from(VQF(1.0 / rate).updateBatch(gyr, acc)["quat6D"])


def run_vqf_offline(acc, gyr, rate):
    """VQF's offline variant: acausal, it sees the whole recording (a bound no
    online filter can reach, not a rival)."""
    import numpy as np
    from vqf import offlineVQF
    gyr, acc = (np.ascontiguousarray(a, dtype=float) for a in (gyr, acc))
    return up_from(offlineVQF(gyr, acc, None, 1.0 / rate)["quat6D"])


def run_fusion(acc, gyr, rate):
    """x-io's Fusion without a magnetometer: Ahrs after its Bias gyroscope-offset
    estimator, one sample at a time.

    Settings are given explicitly because imufusion 1.3.3's own defaults assume
    100 Hz (Ahrs and Bias scale their start-up ramp, rejection timeout, stationary
    period and high-pass by it) and switch acceleration rejection off (0°, 0 s).
    Used: the sample rate of the data; gain 0.5, acceleration rejection 10° and
    rejection timeout 5 s, the values Fusion's README calls appropriate for most
    applications; gyroscope range 0 (overrange recovery off: no range is known
    for the data); Bias: stationary threshold 3 °/s over 3 s (its defaults).
    """
    import imufusion
    import numpy as np
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(sample_rate=rate, gain=0.5, acceleration_rejection=10.0,
                                             rejection_timeout=5.0))
    ahrs.set_sample_period(1.0 / rate)
    bias = imufusion.Bias()
    bias.set_settings(imufusion.BiasSettings(sample_rate=rate))
    out = np.empty((len(acc), 3))
    # Fusion takes °/s and g.
    for k, (g, a) in enumerate(zip(np.degrees(gyr), np.asarray(acc) / G)):
        ahrs.update_no_magnetometer(bias.update(g), a)
        out[k] = ahrs.get_gravity()   # "up" in the board frame, unit length
    return out


def run_vqf_9d(acc, gyr, mag, rate):
    """VQF online with its magnetometer (nine axes, default settings: magnetic
    disturbance rejection on): its attitude quaternions, w x y z."""
    import numpy as np
    from vqf import VQF
    gyr, acc, mag = (np.ascontiguousarray(a, dtype=float) for a in (gyr, acc, mag))
    return VQF(1.0 / rate).updateBatch(gyr, acc, mag)["quat9D"]


def run_vqf_offline_9d(acc, gyr, mag, rate):
    """Offline VQF with its magnetometer: acausal, a bound."""
    import numpy as np
    from vqf import offlineVQF
    gyr, acc, mag = (np.ascontiguousarray(a, dtype=float) for a in (gyr, acc, mag))
    return offlineVQF(gyr, acc, mag, 1.0 / rate)["quat9D"]


def run_fusion_9d(acc, gyr, mag, rate):
    """Fusion with its magnetometer: run_fusion's settings, plus magnetic
    rejection 10° (Fusion's README's value; it shares the 5 s rejection
    timeout). Its attitude quaternions, w x y z (earth frame north-west-up)."""
    import imufusion
    import numpy as np
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(sample_rate=rate, gain=0.5, acceleration_rejection=10.0,
                                             magnetic_rejection=10.0, rejection_timeout=5.0))
    ahrs.set_sample_period(1.0 / rate)
    bias = imufusion.Bias()
    bias.set_settings(imufusion.BiasSettings(sample_rate=rate))
    out = np.empty((len(acc), 4))
    for k, (g, a, m) in enumerate(zip(np.degrees(gyr), np.asarray(acc) / G, np.asarray(mag))):
        ahrs.update(bias.update(g), a, m)
        out[k] = ahrs.get_quaternion()
    return out


def heading(estimate, truth, movement):
    """Heading error per sample, degrees, and its RMS over the movement
    phase. The error is the turn about the vertical of q_est ⊗ q_true⁻¹
    (2·atan2(z, w): the twist about earth z), less one constant per filter
    and trial, the circular mean of that turn over the movement phase: the
    reference's x is not magnetic north, and filters disagree on which axis
    north is (VQF east-north-up, Fusion and CoreMotion north first). What
    remains is how far the heading wanders. NaN where the reference is lost."""
    import numpy as np
    q = np.asarray(estimate, dtype=float)
    t = np.asarray(truth, dtype=float) * np.array([1, -1, -1, -1])
    w = q[:, 0] * t[:, 0] - q[:, 1] * t[:, 1] - q[:, 2] * t[:, 2] - q[:, 3] * t[:, 3]
    z = q[:, 0] * t[:, 3] + q[:, 1] * t[:, 2] - q[:, 2] * t[:, 1] + q[:, 3] * t[:, 0]
    turn = 2 * np.arctan2(z, w)
    used = movement & np.isfinite(turn)
    constant = np.angle(np.mean(np.exp(1j * turn[used])))
    errors = np.degrees(np.angle(np.exp(1j * (turn - constant))))
    return errors, float(np.sqrt(np.mean(np.square(errors[used]))))


def inclination(estimate, truth):
    """Degrees between two "up" directions per row: NaN where the truth is NaN
    (no reference), 180 where only the estimate is (a filter that lost itself
    must not vanish from the averages). atan2 of |a×b| and a·b: accurate at
    small angles, where acos is not."""
    import numpy as np
    estimate, truth = np.asarray(estimate, dtype=float), np.asarray(truth, dtype=float)
    errors = np.degrees(np.arctan2(np.linalg.norm(np.cross(estimate, truth), axis=1),
                                   np.einsum("ij,ij->i", estimate, truth)))
    errors[np.isnan(errors) & np.isfinite(truth).all(axis=1)] = 180.0
    return errors
