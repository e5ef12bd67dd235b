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
# Modules LinuxMotion re-exports (`@_exported import` in Sources/LinuxMotion/Vocabulary.swift).
REEXPORTED = ("MotionMath",)


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


def symbol_index(directory):
    """Every symbol of every graph by its USR: (module, symbol)."""
    index = {}
    for path in glob.glob(os.path.join(directory, "*.symbols.json")):
        module = os.path.basename(path).split(".")[0].split("@")[0]
        for symbol in json.load(open(path))["symbols"]:
            index.setdefault(symbol["identifier"]["precise"], (module, symbol))
    return index


def surface(directory):
    """LinuxMotion's declarations and those of the types its typealiases name, sorted.

    An aliased type is found by its USR in the graphs, never by reading the
    mangled name: Swift's mangling writes a word a name shares with its
    module as a back-reference ("s:10MotionCore0A6SampleV" is
    MotionCore.MotionSample), which a reader of "<length><name>" pieces
    took for an empty name, dropping every member of the type."""
    own = declarations(directory, MODULE)
    lines = {line for _, _, line in own}
    index = symbol_index(directory)
    aliased = {}
    for symbol, _, _ in own:
        if symbol["kind"]["identifier"] != "swift.typealias":
            continue
        targets = [f["preciseIdentifier"] for f in symbol["declarationFragments"] if f.get("preciseIdentifier")]
        if not targets:
            sys.exit(f"check-api: the typealias {symbol['names']['title']} names no type the graphs know")
        for usr in targets:
            if usr not in index:
                sys.exit(f"check-api: the typealias {symbol['names']['title']} names {usr}, found in no symbol graph")
            module, target = index[usr]
            aliased.setdefault(module, set()).add(target["pathComponents"][0])
    nameable = {(MODULE, s["pathComponents"][0]) for s, _, _ in own}
    nameable |= {(module, name) for module, names in aliased.items() for name in names}
    everything = list(own)
    # A module LinuxMotion re-exports whole is its surface whole, named or not.
    for module in REEXPORTED:
        found = declarations(directory, module)
        everything += found
        lines |= {line for _, _, line in found}
        nameable |= {(module, s["pathComponents"][0]) for s, _, _ in found}
    for module, names in sorted(aliased.items()):
        found = declarations(directory, module, only=names)
        everything += found
        lines |= {line for _, _, line in found}
        # Each named type's own declaration must be there: a type that
        # vanished from the surface is the failure this check exists for.
        for name in names:
            if not any(s["pathComponents"] == [name] for s, _, _ in found):
                sys.exit(f"check-api: {module}.{name}, which LinuxMotion names, has no public declaration in the graphs")
    unnameable = set()
    for symbol, _, line in everything:
        for fragment in symbol.get("declarationFragments", []):
            usr = fragment.get("preciseIdentifier")
            if fragment.get("kind") != "typeIdentifier" or usr not in index:
                continue
            module, target = index[usr]
            if (module, target["pathComponents"][0]) not in nameable:
                unnameable.add(f"  {'.'.join(target['pathComponents'])} ({module}), in {line}")
    if unnameable:
        print("check-api: public declarations use types `import LinuxMotion` cannot name:", file=sys.stderr)
        print("\n".join(sorted(unnameable)), file=sys.stderr)
        sys.exit(1)
    return sorted(lines)


def compare(before, now):
    """The lines removed from and added to the baseline."""
    return sorted(set(before) - set(now)), sorted(set(now) - set(before))


def self_test(now):
    """The check must fail when a member of a type a program implements goes."""
    for member in ("MotionCore: MotionSample.timestamp:", "MotionCore: MotionSource.start():"):
        line = next((l for l in now if l.startswith(member)), None)
        if line is None:
            sys.exit(f"check-api: self-test: no '{member}' in the surface: members are being dropped")
        removed, added = compare(now, [l for l in now if l != line])
        if removed != [line] or added:
            sys.exit(f"check-api: self-test: removing '{line}' was not reported as a removal")
        print(f"check-api: self-test: removing {member.split(': ')[1].rstrip(':')} fails the check:\n  - {line}")


def check_products():
    """What another package may depend on: the game and the library, nothing
    beneath them (the benchmarks see more only with TILTMAZE_BENCHMARKS=1)."""
    env = {k: v for k, v in os.environ.items() if k != "TILTMAZE_BENCHMARKS"}
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"check-api: swift package dump-package failed:\n{out.stderr[-3000:]}")
    products = sorted(p["name"] for p in json.loads(out.stdout)["products"])
    if products != ["LinuxMotion", "tiltmaze"]:
        sys.exit(f"check-api: the package exports {', '.join(products)}; other packages may see only tiltmaze and LinuxMotion")
    print("check-api: other packages see two products: tiltmaze and LinuxMotion")
    # A player's build (make play, make install) fetches only what the program needs.
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True,
                         env={**env, "TILTMAZE_PLAY_ONLY": "1"})
    if out.returncode != 0:
        sys.exit(f"check-api: swift package dump-package (TILTMAZE_PLAY_ONLY=1) failed:\n{out.stderr[-3000:]}")
    fetched = sorted(d["sourceControl"][0]["location"]["remote"][0]["urlString"].rstrip("/").split("/")[-1].removesuffix(".git")
                     for d in json.loads(out.stdout)["dependencies"] if "sourceControl" in d)
    if fetched != ["swift-argument-parser", "swift-system"]:
        sys.exit(f"check-api: a player's build (TILTMAZE_PLAY_ONLY=1) fetches {', '.join(fetched)}; "
                 "it needs only swift-argument-parser and swift-system")
    print("check-api: a player's build fetches swift-argument-parser and swift-system, nothing else")


def main():
    update = "--update" in sys.argv
    check_products()
    directory = symbol_graph_dir()
    failed = False
    now = surface(directory)
    self_test(now)
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
    removed, added = compare(before, now)
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
