#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Checks the module cut of Package.swift (ARCHITECTURE.md, "Modules"):
every module has a rule saying what it may not reach (the game and the
renderer never reach the sensor libraries, the wrappers only their C
library, the motion core no C at all), no module above the wrappers
uses a C module directly, every module a target imports is one Package.swift
gives it, and Render makes no device call itself.

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


sensor_side = {"CIIO", "CEvdev", "IIO", "Evdev", "I2C", "MotionDevices"}
display_side = {"CLinuxDisplay", "CDRM", "Fbdev", "DRM"}
c_modules = {"CIIO", "CEvdev", "CPNG", "CSystemCalls", "CLinuxDisplay", "CDRM"}
ours = set(targets)
test_only = {"TestSupport", "MockDevices", "CUmockdev", "CReadFaults"}


def only(*allowed):
    """Everything of the package except `allowed`, the module itself, and
    LibC: the platform's C library, which any module may import (through
    LibC only, where an unsupported platform is an #error)."""
    return ours - set(allowed) - {"LibC"}


# What each module may not reach, directly or through another. Every module
# of Sources/ has a rule; a new one without a rule fails this script.
rules = {
    "tiltmaze": test_only,
    # doctor and devices: what the machine offers; never the game or its screens.
    "Diagnostics": {"Render", "Displays", "Session", "Game", "tiltmaze"} | test_only,
    # The session: between the sensor side and the screens, owning the pipeline (its rule on
    # what it may use directly is below).
    "Session": {"Diagnostics", "tiltmaze", "LinuxMotion"} | test_only,
    # Pictures: no device of any kind, no file format; only the game's values made into pixels and cells.
    # (It reaches the system-call seam only through the game's own modules: see direct_forbidden.)
    "Render": sensor_side | display_side | {"PNG", "CPNG", "Displays", "Session", "Diagnostics", "tiltmaze"} | test_only,
    # Where pictures go and keys come from: no sensor library, no session; device calls only through the display wrappers.
    "Displays": sensor_side | {"Session", "Diagnostics", "tiltmaze", "LinuxMotion"} | test_only,
    # The game: no device and no screen.
    "Game": sensor_side | display_side | {"Render", "Displays", "Session", "Diagnostics", "PNG", "CPNG", "tiltmaze"} | test_only,
    "MotionDevices": display_side | {"Render", "Displays", "Session", "Game", "Diagnostics", "PNG", "CPNG", "tiltmaze", "LinuxMotion"} | test_only,
    # The library for other programs: the motion stack only, never the game, its screens or this tool.
    "LinuxMotion": display_side | {"Render", "Displays", "Session", "Game", "Diagnostics", "PNG", "CPNG", "tiltmaze"} | test_only,
    # Pure Swift: samples, filters, the board's physics; no C at all, ours included.
    "MotionCore": only("Handoff", "MotionMath"),
    # Vectors and rotations: nothing else at all.
    "MotionMath": only(),
    # The platform's C library: it re-exports Glibc or Musl and depends on nothing.
    "LibC": only(),
    # Values only: they depend on nothing of the package.
    "Controls": only(),
    # The player's controllers: evdev's face and the values of Controls, nothing of the motion side.
    "Gamepads": only("Controls", "Evdev", "CEvdev", "SystemCalls", "CSystemCalls"),
    "Handoff": only(),
    "Realtime": only("SystemCalls", "CSystemCalls", "Handoff"),
    "SystemCalls": only("CSystemCalls"),
    # Thin faces on their C library and the system-call seam: no policy above them.
    "IIO": only("CIIO", "SystemCalls", "CSystemCalls"),
    "Evdev": only("CEvdev", "SystemCalls", "CSystemCalls"),
    "I2C": only("SystemCalls", "CSystemCalls"),
    "Fbdev": only("CLinuxDisplay", "SystemCalls", "CSystemCalls"),
    "DRM": only("CDRM", "SystemCalls", "CSystemCalls"),
    "PNG": only("CPNG", "SystemCalls", "CSystemCalls"),
    # Tests of the game and the screens never reach the sensor libraries.
    "GameTests": sensor_side | display_side,
    "RenderTests": sensor_side,
    "MotionCoreTests": sensor_side | display_side,
}
# Modules above the wrappers call no C library themselves: only through a wrapper.
direct_c_forbidden = {"Render", "Displays", "Session", "Diagnostics", "Game", "MotionDevices", "MotionCore", "MotionMath", "LinuxMotion", "tiltmaze"}

failed = False


def fail(text):
    global failed
    failed = True
    print(text, file=sys.stderr)


for t in package["targets"]:
    if t["type"] in ("regular", "executable") and t.get("path") is None and t["name"] not in rules \
            and t["name"] not in c_modules:
        fail(f"{t['name']} has no rule in scripts/check-module-layers.py: say what it may not reach")
for module, forbidden in rules.items():
    bad = reach(module) & (forbidden - {module})
    if bad:
        fail(f"{module} reaches {', '.join(sorted(bad))}: see ARCHITECTURE.md, Modules")
# The session reaches the devices only through what is handed to it: the sources of
# MotionDevices and the back ends of Displays, made by the tool. It names no device library.
direct_forbidden = {"Session": {"IIO", "Evdev", "I2C", "Fbdev", "DRM", "PNG"},
                    # Pictures make no system call, keep no clock and read no key themselves.
                    "Render": {"SystemCalls", "CSystemCalls", "Realtime", "Controls"}}
for module, forbidden in direct_forbidden.items():
    bad = set(direct(module)) & forbidden
    if bad:
        fail(f"{module} depends on {', '.join(sorted(bad))} directly: see its rule in ARCHITECTURE.md, Modules")
for module in direct_c_forbidden:
    bad = set(direct(module)) & c_modules
    if bad:
        fail(f"{module} uses {', '.join(sorted(bad))} directly: call C through its wrapper module (ARCHITECTURE.md, Rules)")
# The library product is for any program: no command-line parser comes with it.
def products(name):
    for module in {name} | reach(name):
        for dep in targets[module]["dependencies"]:
            if "product" in dep:
                yield dep["product"][0]


for product in ("ArgumentParser",):
    if product in set(products("LinuxMotion")):
        fail(f"LinuxMotion reaches the product {product}: the library must not pull it into programs that use it")
import pathlib
import re

# Every module a target imports is one it declares. Swift lets a target import
# any module built before it, so a module reached only through another one's
# dependencies compiles, and the rules above, which read Package.swift, never
# see it. So the `import` lines themselves are read (all forms: attributes,
# access levels, `import struct M.T`; inside `#if` too, since a branch not
# taken here is taken on another platform).
import_line = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
                         r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")
product_modules = {dep["product"][0] for t in package["targets"] for dep in t["dependencies"] if "product" in dep}


def declared(name):
    for dep in targets[name]["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dep:
                yield dep[kind][0]


for name, target in targets.items():
    if target["type"] == "system":
        continue
    root = pathlib.Path(target.get("path") or (("Tests/" if target["type"] == "test" else "Sources/") + name))
    allowed = set(declared(name)) | {name}
    for source in sorted(root.rglob("*.swift")):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            match = import_line.match(line)
            if match and match.group(1) in (ours | product_modules) - allowed:
                fail(f"{source}:{number}: {name} imports {match.group(1)}, which Package.swift does not give it: "
                     "declare the dependency (and check its rule above), or reach it through one that is")

# The platform is chosen in one place: only LibC imports Glibc or Musl.
platform_import = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(Glibc|Musl|Darwin)\b")
for root in ("Sources", "Tests"):
    for source in sorted(pathlib.Path(root).rglob("*.swift")):
        if source.parts[1] == "LibC":
            continue
        for number, line in enumerate(source.read_text().splitlines(), 1):
            match = platform_import.match(line)
            if match:
                fail(f"{source}:{number}: imports {match.group(1)} itself: import LibC, the one module that chooses the platform's C library")

# Render draws and Displays sends; the device calls (ioctl, mmap) are the display wrappers' job.
device_call = re.compile(r"\b(ioctl|mmap|munmap)\(|\.control\(")
for source in sorted([*pathlib.Path("Sources/Render").rglob("*.swift"), *pathlib.Path("Sources/Displays").rglob("*.swift")]):
    for number, line in enumerate(source.read_text().splitlines(), 1):
        code = line.split("//", 1)[0]
        if device_call.search(code):
            fail(f"{source}:{number}: a device call in {source.parts[1]}: put it in Fbdev or DRM")
if failed:
    sys.exit(1)
print(f"module layers: ok ({', '.join(rules)})")
