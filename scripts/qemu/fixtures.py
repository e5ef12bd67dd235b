# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Fixtures recorded from real kernel drivers in the guest, for host-check hooks.

A scenario prints a fixture as console lines `fixture NAME: LINE` (one per
line of the file). `check` gathers them from OUT/console.log and compares
each with Tests/Fixtures/kernel/NAME in the repository: the mocks the
host-side tests use are checked against these files, so a driver that says
something else must fail here first. With TILTMAZE_RECORD_FIXTURES=1 the
files are written instead (the way to make or refresh them:
`TILTMAZE_RECORD_FIXTURES=1 make test-qemu`, then review the diff).

Each kernel the tier boots keeps its own: Tests/Fixtures/kernel/ for the
x86_64 guest (Debian bookworm's 6.1), Tests/Fixtures/kernel-6.12-arm64/ for
the arm64 guest (trixie's 6.12, the series Raspberry Pi OS runs); run.py
tells a hook which through TILTMAZE_QEMU_ARCH.
"""
import difflib
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "Tests", "Fixtures",
                        "kernel-6.12-arm64" if os.environ.get("TILTMAZE_QEMU_ARCH") == "arm64" else "kernel")
RECORD = "make test-qemu-arm64" if os.environ.get("TILTMAZE_QEMU_ARCH") == "arm64" else "make test-qemu"


def gather(out):
    files = {}
    with open(os.path.join(out, "console.log"), encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.startswith("fixture ") or ": " not in line:
                continue
            name, text = line[len("fixture "):].split(": ", 1)
            files.setdefault(name, []).append(text)
    return {name: "\n".join(lines) + "\n" for name, lines in files.items()}


def comparable(text):
    """The text with what differs from boot to boot masked: a character
    device's major number is handed out as modules load (IIO's was 246 in
    one run, 245 in another, after the HID modules)."""
    text = re.sub(r"(?m)^E: MAJOR=\d+$", "E: MAJOR=*", text)
    # A HID device's instance number counts the HID devices made since boot
    # (the controllers' scenarios make some first), and its sensors' platform
    # devices are numbered from the same counter.
    text = re.sub(r"\b([0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{4})\.[0-9A-F]{4}\b", r"\1.*", text)
    text = re.sub(r"\b(HID-SENSOR-[0-9A-F]+)\.\d+\.auto\b", r"\1.*.auto", text)
    return re.sub(r"(?m)^A: dev=\d+:", "A: dev=*:", text)


def check(out, names):
    """(ok, message) for each expected fixture NAME."""
    found = gather(out)
    record = os.environ.get("TILTMAZE_RECORD_FIXTURES") == "1"
    results = []
    for name in names:
        text = found.get(name)
        path = os.path.join(FIXTURES, name)
        if text is None:
            results.append((False, f"fixture {name}: the guest printed none"))
            continue
        if record:
            os.makedirs(FIXTURES, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            results.append((True, f"fixture {name}: recorded in {os.path.relpath(path, REPO)}"))
            continue
        try:
            with open(path, encoding="utf-8") as f:
                kept = f.read()
        except OSError:
            results.append((False, f"fixture {name}: {os.path.relpath(path, REPO)} is missing "
                                   f"(TILTMAZE_RECORD_FIXTURES=1 {RECORD} records it)"))
            continue
        if comparable(kept) == comparable(text):
            results.append((True, f"fixture {name}: the real driver says what {os.path.relpath(path, REPO)} keeps"))
        else:
            diff = "".join(difflib.unified_diff(kept.splitlines(True), text.splitlines(True), "kept", "real driver"))
            results.append((False, f"fixture {name}: the real driver differs from the kept file "
                                   f"(if the change is expected: TILTMAZE_RECORD_FIXTURES=1 {RECORD}):\n{diff}"))
    return results
