#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The public API of the LinuxMotion library product, checked against the
baseline committed in api/LinuxMotion.txt: LinuxMotion's own declarations,
and those of the types it names with a public typealias (Vector3 from
MotionCore, SensorRequest from MotionDevices, …), since `import LinuxMotion`
is all a program needs and a change to their members reaches it too.

A difference fails, with the lines added and removed: a change to the
surface is a deliberate act. When it is meant, run this script with
--update and commit the new baseline with the change (and, for a removal or
a changed signature, say so as a breaking change).

Reads the symbol graphs `swift package dump-symbol-graph` writes (public only)."""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = "LinuxMotion"


def symbol_graph_dir():
    out = subprocess.run(["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"],
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check-api: swift package dump-symbol-graph failed:\n{out.stderr[-3000:]}")
    for line in (out.stdout + out.stderr).splitlines():
        if line.startswith("Files written to "):
            return line[len("Files written to "):].strip()
    sys.exit("check-api: dump-symbol-graph did not say where it wrote the graphs")


def declarations(directory, module, only=None):
    """(top-level name, line) for each public declaration of `module` (and its
    extensions of other modules); `only`: keep those under these top-level names."""
    found = []
    for path in glob.glob(os.path.join(directory, f"{module}.symbols.json")) + \
            glob.glob(os.path.join(directory, f"{module}@*.symbols.json")):
        graph = json.load(open(path))
        extended = os.path.basename(path)[len(module) + 1:].split(".")[0] if "@" in path else ""
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"].endswith(".implementation"):
                continue
            top = symbol["pathComponents"][0]
            if only is not None and top not in only:
                continue
            declaration = " ".join("".join(f["spelling"] for f in symbol.get("declarationFragments", [])).split())
            where = ".".join(symbol["pathComponents"])
            prefix = f"{module}" + (f"@{extended}" if extended else "")
            found.append((symbol, declaration, f"{prefix}: {where}: {declaration}"))
    return found


def read_name(text):
    """A mangled identifier's leading "<length><name>": the name and what follows."""
    digits = len(text) - len(text.lstrip("0123456789"))
    length = int(text[:digits])
    return text[digits:digits + length], text[digits + length:]


def surface(directory):
    """LinuxMotion's declarations and those of the types its typealiases name, sorted."""
    own = declarations(directory, MODULE)
    lines = {line for _, _, line in own}
    aliased = {}
    for symbol, _, _ in own:
        if symbol["kind"]["identifier"] != "swift.typealias":
            continue
        # The aliased type's USR, "s:10MotionCore7Vector3V": module and name, each after its length.
        for fragment in symbol["declarationFragments"]:
            usr = fragment.get("preciseIdentifier", "")
            if usr.startswith("s:"):
                module, rest = read_name(usr[2:])
                name, _ = read_name(rest)
                aliased.setdefault(module, set()).add(name)
    for module, names in sorted(aliased.items()):
        lines |= {line for _, _, line in declarations(directory, module, only=names)}
    return sorted(lines)


def main():
    update = "--update" in sys.argv
    directory = symbol_graph_dir()
    failed = False
    now = surface(directory)
    baseline = os.path.join(ROOT, "api", f"{MODULE}.txt")
    if update:
        with open(baseline, "w") as f:
            f.write("\n".join(now) + "\n")
        print(f"check-api: wrote {os.path.relpath(baseline, ROOT)} ({len(now)} declarations)")
        return
    try:
        before = open(baseline).read().splitlines()
    except FileNotFoundError:
        sys.exit(f"check-api: no baseline {os.path.relpath(baseline, ROOT)}: run scripts/check-api.py --update")
    removed = sorted(set(before) - set(now))
    added = sorted(set(now) - set(before))
    if removed or added:
        failed = True
        print(f"check-api: the public API of {MODULE} differs from api/{MODULE}.txt:", file=sys.stderr)
        for line in removed:
            print(f"  - {line}", file=sys.stderr)
        for line in added:
            print(f"  + {line}", file=sys.stderr)
    else:
        print(f"check-api: {MODULE}: {len(now)} public declarations, as in api/{MODULE}.txt")
    if failed:
        print("check-api: if the change is meant, run scripts/check-api.py --update and commit api/ with it "
              "(a removed or changed line breaks programs built on the library)", file=sys.stderr)
        sys.exit(1)


main()
