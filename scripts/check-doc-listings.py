#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Compiles every Swift listing in the documentation, as a newcomer would
use it: in a package of its own that depends on this one by path.

The listings are the ```swift blocks of README.md, docs/*.md, hardware.md,
Examples/README.md and the LinuxMotion DocC catalogue. GettingStarted's
manifest listing (the one starting `// swift-tools-version`) is that
package's manifest, verbatim, with the repository beside it as
`../tiltmaze`; the listing after it, its program. Of the others:

- a listing with an `import` is a whole program: an executable of its own;
- a listing without one is a fragment of a program: it is compiled as the
  body of an async throwing function that has in scope what the text
  around it names, a `manager` (MotionManager) and a `motion` (DeviceMotion),
  and again as a newcomer pastes it, at the top level of a main.swift of
  its own after those two.

Nothing is run: a listing may read a sensor forever. Exits 1 naming the
file and listing of each one that does not compile.

usage: check-doc-listings.py [WORK_DIR]   (default .build/doc-listings)"""
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md", "hardware.md", "Examples/README.md"] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) \
    + sorted(glob.glob(os.path.join(ROOT, "Sources", "LinuxMotion", "LinuxMotion.docc", "*.md")))
FRAGMENT_CONTEXT = "manager: MotionManager, motion: DeviceMotion"


def listings():
    """(page, number on the page, line, code) for every ```swift block."""
    found = []
    for page in PAGES:
        path = page if os.path.isabs(page) else os.path.join(ROOT, page)
        text = open(path, encoding="utf-8").read()
        for number, match in enumerate(re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M), 1):
            line = text.count("\n", 0, match.start()) + 2
            found.append((os.path.relpath(path, ROOT), number, line, match.group(1)))
    return found


def top_level(fragment):
    """A fragment at the top level of a main.swift, after what the text
    around it names (unless the fragment makes its own), nothing of it run."""
    context = ["import LinuxMotion", ""]
    if not re.search(r"\b(let|var)\s+manager\b", fragment):
        context.append("let manager = MotionManager(source: .sim)")
    if not re.search(r"\b(let|var)\s+motion\b", fragment):
        context.append('let motion: DeviceMotion = { fatalError("a listing is compiled, not run") }()')
    return "\n".join(context) + "\n\n" + fragment


def main():
    work = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "doc-listings"))
    found = listings()
    manifests = [l for l in found if l[3].startswith("// swift-tools-version")]
    if len(manifests) != 1:
        sys.exit(f"check-doc-listings: expected one manifest listing, found {len(manifests)}")
    page, number, _, manifest = manifests[0]
    others = [l for l in found if l is not manifests[0]]
    # The program the manifest's text goes with: the next whole program on the same page.
    first = next((l for l in others if l[0] == page and l[1] > number and re.search(r"^import ", l[3], re.M)), None)
    if first is None:
        sys.exit(f"check-doc-listings: {page} has no program after its manifest listing")
    target = re.search(r'\.executableTarget\(\s*name: "([^"]+)"', manifest)
    if not target:
        sys.exit(f"check-doc-listings: {page}'s manifest listing declares no executable target")

    # ../tiltmaze beside the package: this repository, as the listing expects.
    os.makedirs(work, exist_ok=True)
    link = os.path.join(work, "tiltmaze")
    if os.path.islink(link) and os.readlink(link) != ROOT:
        os.unlink(link)
    if not os.path.islink(link):
        os.symlink(ROOT, link)
    package = os.path.join(work, target.group(1))
    sources = os.path.join(package, "Sources")
    shutil.rmtree(sources, ignore_errors=True)
    os.makedirs(os.path.join(sources, target.group(1)))
    open(os.path.join(sources, target.group(1), "main.swift"), "w").write(first[3])

    where = {target.group(1): first}
    extra = []
    fragments = []
    for listing in others:
        if listing is first:
            continue
        name = "Listing" + re.sub(r"\W", "", os.path.basename(listing[0]).removesuffix(".md")) + str(listing[1])
        where[name] = listing
        if re.search(r"^import ", listing[3], re.M):
            os.makedirs(os.path.join(sources, name))
            open(os.path.join(sources, name, "main.swift"), "w").write(listing[3])
            extra.append(name)
        else:
            body = "\n".join("    " + l for l in listing[3].rstrip("\n").split("\n"))
            fragments.append(f"// {listing[0]}, listing {listing[1]} (line {listing[2]})\n"
                             f"func {name[0].lower() + name[1:]}({FRAGMENT_CONTEXT}) async throws {{\n{body}\n}}\n")
            # And as a newcomer pastes it: at the top level of main.swift,
            # where the compiler takes another path (Swift 6.3.1 crashed on
            # a `catch` with a pattern there, and compiled it in a function).
            pasted = "Pasted" + name.removeprefix("Listing")
            where[pasted] = listing
            os.makedirs(os.path.join(sources, pasted))
            open(os.path.join(sources, pasted, "main.swift"), "w").write(top_level(listing[3]))
            extra.append(pasted)
    os.makedirs(os.path.join(sources, "Fragments"))
    open(os.path.join(sources, "Fragments", "Fragments.swift"), "w").write(
        "import LinuxMotion\n\n" + "\n".join(fragments))

    # The manifest as the page shows it, then the other listings' targets.
    product = re.search(r'\.product\(name: "LinuxMotion", package: "([^"]+)"\)', manifest)
    if not product:
        sys.exit(f"check-doc-listings: {page}'s manifest listing does not use the LinuxMotion product")
    uses = f'[.product(name: "LinuxMotion", package: "{product.group(1)}")]'
    added = [f'.executableTarget(name: "{name}", dependencies: {uses})' for name in extra]
    added.append(f'.target(name: "Fragments", dependencies: {uses})')
    open(os.path.join(package, "Package.swift"), "w").write(
        manifest + "\n// Added by scripts/check-doc-listings.py: the documentation's other listings.\n"
        + "package.targets += [\n    " + ",\n    ".join(added) + ",\n]\n")

    result = subprocess.run(["swift", "build", "--package-path", package], capture_output=True, text=True)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).splitlines()
        errors = [l for l in output if ": error: " in l]
        # A compiler crash names no file on its error line; its stack dump
        # names the file it was compiling.
        crashed = sorted({m.group(1) for l in output for m in [re.search(r"-primary-file (\S+/Sources/\w+/)", l)] if m})
        errors = [l for l in errors if not l.startswith("<unknown>:0:")] + \
            [f"{path}main.swift: error: the compiler crashed on it" for path in crashed] + \
            ([l for l in errors if l.startswith("<unknown>:0:")] if not crashed else [])
        print("check-doc-listings: these listings do not compile:", file=sys.stderr)
        for line in errors or output[-30:]:
            hit = re.search(r"Sources/(\w+)/", line)
            listing = where.get(hit.group(1)) if hit else None
            if hit and hit.group(1) == "Fragments":
                fragment = re.search(r"Fragments\.swift:(\d+)", line)
                if fragment:
                    text = open(os.path.join(sources, "Fragments", "Fragments.swift")).read().split("\n")
                    head = next((t for t in reversed(text[:int(fragment.group(1))]) if t.startswith("// ")), "")
                    print(f"  {head[3:]}:", file=sys.stderr)
            elif listing:
                print(f"  {listing[0]}, listing {listing[1]} (line {listing[2]}):", file=sys.stderr)
            print(f"    {line.strip()}", file=sys.stderr)
        sys.exit(1)
    pasted = sum(1 for name in extra if name.startswith("Pasted"))
    print(f"check-doc-listings: {len(found)} Swift listings compile ({len(extra) - pasted + 1} programs, "
          f"{len(fragments)} fragments, each in a function and at the top level of a main.swift, "
          f"and {page}'s manifest)")


main()
