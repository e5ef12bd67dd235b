#!/usr/bin/env python3
"""The public API of the LinuxMotion library product, checked against the
baseline committed in api/: LinuxMotion's own declarations and MotionCore's,
which LinuxMotion re-exports (`import LinuxMotion` is all a program needs).

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
MODULES = ["LinuxMotion", "MotionCore"]


def symbol_graph_dir():
    out = subprocess.run(["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"],
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check-api: swift package dump-symbol-graph failed:\n{out.stderr[-3000:]}")
    for line in (out.stdout + out.stderr).splitlines():
        if line.startswith("Files written to "):
            return line[len("Files written to "):].strip()
    sys.exit("check-api: dump-symbol-graph did not say where it wrote the graphs")


def surface(directory, module):
    """One line per public declaration: its path and its declaration, sorted."""
    lines = set()
    for path in glob.glob(os.path.join(directory, f"{module}.symbols.json")) + \
            glob.glob(os.path.join(directory, f"{module}@*.symbols.json")):
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"].endswith(".implementation"):
                continue
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            extended = os.path.basename(path)[len(module) + 1:].split(".")[0] if "@" in path else ""
            where = ".".join(symbol["pathComponents"])
            lines.add(f"{extended + ': ' if extended else ''}{where}: {' '.join(declaration.split())}")
    return sorted(lines)


def main():
    update = "--update" in sys.argv
    directory = symbol_graph_dir()
    failed = False
    for module in MODULES:
        now = surface(directory, module)
        baseline = os.path.join(ROOT, "api", f"{module}.txt")
        if update:
            with open(baseline, "w") as f:
                f.write("\n".join(now) + "\n")
            print(f"check-api: wrote {os.path.relpath(baseline, ROOT)} ({len(now)} declarations)")
            continue
        try:
            before = open(baseline).read().splitlines()
        except FileNotFoundError:
            print(f"check-api: no baseline {os.path.relpath(baseline, ROOT)}: run scripts/check-api.py --update",
                  file=sys.stderr)
            failed = True
            continue
        removed = sorted(set(before) - set(now))
        added = sorted(set(now) - set(before))
        if removed or added:
            failed = True
            print(f"check-api: {module}'s public API differs from api/{module}.txt:", file=sys.stderr)
            for line in removed:
                print(f"  - {line}", file=sys.stderr)
            for line in added:
                print(f"  + {line}", file=sys.stderr)
        else:
            print(f"check-api: {module}: {len(now)} public declarations, as in api/{module}.txt")
    if failed:
        print("check-api: if the change is meant, run scripts/check-api.py --update and commit api/ with it "
              "(a removed or changed line breaks programs built on the library)", file=sys.stderr)
        sys.exit(1)


main()
