#!/usr/bin/env python3
"""Checks the module cut of Package.swift (ARCHITECTURE.md, "Modules"):
the game and the renderer, and their tests, never reach the sensor
libraries, and the motion core reaches no C library at all.

Reads `swift package dump-package` (run by `make test` before the build);
exits 1 naming each module that reaches what it may not."""
import json
import subprocess
import sys

package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                    capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in package["targets"]}


def direct(name):
    """The package's own targets `name` depends on (products of other packages are not followed)."""
    for dep in targets[name]["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dep and dep[kind][0] in targets:
                yield dep[kind][0]


def reach(name, seen=None):
    seen = set() if seen is None else seen
    for dep in direct(name):
        if dep not in seen:
            seen.add(dep)
            reach(dep, seen)
    return seen


sensor_side = {"CIIO", "CEvdev", "IIO", "Evdev", "MotionDevices"}
rules = {
    "Game": sensor_side,
    "Render": sensor_side,
    "GameTests": sensor_side,
    "RenderTests": sensor_side,
    "MotionCoreTests": sensor_side,
    # Pure Swift: samples, filters, the board's physics; no C at all, ours included.
    "MotionCore": {"CIIO", "CEvdev", "CSystemCalls", "IIO", "Evdev", "MotionDevices", "SystemCalls", "Realtime"},
    # Values only: they depend on nothing of the package.
    "Controls": set(targets) - {"Controls"},
    "Handoff": set(targets) - {"Handoff"},
    # Thin faces on their C library and the system-call seam: no policy above them.
    "IIO": set(targets) - {"CIIO", "SystemCalls", "CSystemCalls"},
    "Evdev": set(targets) - {"CEvdev", "SystemCalls", "CSystemCalls"},
}
failed = False
for module, forbidden in rules.items():
    bad = reach(module) & forbidden
    if bad:
        failed = True
        print(f"{module} reaches {', '.join(sorted(bad))}: see ARCHITECTURE.md, Modules", file=sys.stderr)
if failed:
    sys.exit(1)
print(f"module layers: ok ({', '.join(rules)})")
