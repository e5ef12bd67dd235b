#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Builds tiltmaze_VERSION_ARCH.deb from `make release`'s binary and manual
pages, with the same list of files as `make install PREFIX=/usr`
(scripts/install.py) plus the package's own documents.

  scripts/make-deb.py [--out DIR]      (default: the project root)

- VERSION is what `tiltmaze --version` prints (Sources/tiltmaze/Version.swift);
  packaging/deb/changelog must have an entry for it, or nothing is built.
- ARCH is `dpkg --print-architecture`: amd64 here, arm64 or armhf on a Pi;
  or `--arch arm64` on an amd64 machine: the arm64 program from
  scripts/arm64/release.sh, stripped, asked its version and read by
  dpkg-shlibdeps inside the trixie arm64 root (scripts/arm64/run-in.sh),
  so that Depends name the versions Raspberry Pi OS trixie has.
- Depends: the shared libraries the binary needs, found by dpkg-shlibdeps,
  then passwd (the scripts run groupadd and usermod where systemd-sysusers is missing).
- The binary is stripped (its symbols are a third of its size); every file
  gets the last commit's time, so the same tree makes the same package.
- The package is written beside its final name and renamed: an interrupted
  build leaves no half package."""
import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import install  # noqa: E402  (the one list of files)

ROOT = install.ROOT
PACKAGING = os.path.join(ROOT, "packaging/deb")


def fail(message):
    sys.exit(f"make-deb: {message}")


# Set by --arch arm64 on another machine: every tool that reads or runs the
# program does so inside the arm64 root.
IN_TARGET = []


def run(command, cwd=None, on_host=False, **options):
    if IN_TARGET and not on_host:
        command = IN_TARGET + ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", cwd or ROOT] + command
        cwd = None
    result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, **options)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
    return result.stdout


def changelog_version():
    first = open(os.path.join(PACKAGING, "changelog")).readline()
    # "tiltmaze (0.9.0) unstable; urgency=medium"
    return first.split("(", 1)[1].split(")", 1)[0] if "(" in first else None


def commit_time():
    result = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%ct"], capture_output=True, text=True)
    return int(result.stdout.strip()) if result.returncode == 0 and result.stdout.strip() else None


def installed_size(root):
    """In KiB as dpkg-gencontrol counts it: each file rounded up, each directory one."""
    total = 0
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if d != "DEBIAN"]
        total += len(subdirectories)
        total += sum((os.lstat(os.path.join(directory, f)).st_size + 1023) // 1024 for f in files)
    return total


def shared_library_depends(work, binary):
    """dpkg-shlibdeps reads debian/control from where it runs: a minimal one is made for it."""
    os.makedirs(os.path.join(work, "debian"), exist_ok=True)
    with open(os.path.join(work, "debian/control"), "w") as f:
        f.write("Source: tiltmaze\n\nPackage: tiltmaze\nArchitecture: any\n")
    output = run(["dpkg-shlibdeps", "-O", "-e" + os.path.relpath(binary, work)], cwd=work)
    for line in output.splitlines():
        if line.startswith("shlibs:Depends="):
            return line.split("=", 1)[1]
    fail(f"dpkg-shlibdeps named no libraries for {binary}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=ROOT)
    parser.add_argument("--arch", help="the package's architecture (default: this machine's); "
                        "arm64 on another machine packages scripts/arm64/release.sh's program")
    parser.add_argument("--binary")
    parser.add_argument("--manuals")
    args = parser.parse_args()
    here = run(["dpkg", "--print-architecture"], on_host=True).strip()
    arch = args.arch or here
    if arch != here:
        if arch != "arm64":
            fail(f"cannot package for {arch} here: only arm64 has a root to build in (scripts/arm64)")
        IN_TARGET.extend([os.path.join(ROOT, "scripts/arm64/run-in.sh"), "target"])
        # install.py runs the program for its completion scripts: qemu-user
        # (binfmt_misc) runs it here, finding its libraries in the arm64 root.
        os.environ["QEMU_LD_PREFIX"] = os.path.join(
            os.environ.get("TILTMAZE_ARM64_ROOT", "/var/cache/tiltmaze/arm64-root"), "target")
        args.binary = args.binary or os.path.join(ROOT, ".build-arm64/aarch64-unknown-linux-gnu/release/tiltmaze")
        args.manuals = args.manuals or os.path.join(ROOT, ".build-arm64/manuals")
        built_by = "scripts/arm64/release.sh (make deb-arm64)"
    else:
        args.binary = args.binary or install.RELEASE_BINARY
        args.manuals = args.manuals or install.MANUALS
        built_by = "`make release`"
    for tool in ["dpkg-deb"] + ([] if IN_TARGET else ["dpkg-shlibdeps", "strip"]):
        if not shutil.which(tool):
            fail(f"{tool} is missing: apt-get install dpkg-dev binutils")
    if not os.access(args.binary, os.X_OK):
        fail(f"no built binary at {args.binary}: run {built_by} first")

    version = run([args.binary, "--version"]).strip()
    if changelog_version() != version:
        fail(f"packaging/deb/changelog's newest entry is {changelog_version()}, the program is {version}: "
             "add an entry for this version at its top")
    name = f"tiltmaze_{version}_{arch}"
    work = os.path.join(ROOT, ".build/deb", name)
    shutil.rmtree(work, ignore_errors=True)
    root = os.path.join(work, "root")

    install.stage("/usr", root, args.binary, args.manuals, say=lambda _: None)
    binary = root + "/usr/bin/tiltmaze"
    run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", binary])

    doc = root + "/usr/share/doc/tiltmaze"
    os.makedirs(doc, exist_ok=True)  # install.py put the documentation there
    shutil.copyfile(os.path.join(PACKAGING, "copyright"), doc + "/copyright")
    # A native package's changelog is changelog.gz; -n: no name or time in the gzip header.
    with open(os.path.join(PACKAGING, "changelog"), "rb") as f:
        open(doc + "/changelog.gz", "wb").write(gzip.compress(f.read(), compresslevel=9, mtime=0))

    control = os.path.join(root, "DEBIAN")
    os.makedirs(control)
    template = open(os.path.join(PACKAGING, "control.in")).read()
    fields = {"@VERSION@": version, "@ARCH@": arch,
              "@SHLIBS@": shared_library_depends(work, binary),
              "@INSTALLED_SIZE@": str(installed_size(root))}
    for key, value in fields.items():
        template = template.replace(key, value)
    open(os.path.join(control, "control"), "w").write(template)
    for script in ["postinst", "prerm", "postrm"]:
        shutil.copyfile(os.path.join(PACKAGING, script), os.path.join(control, script))
        os.chmod(os.path.join(control, script), 0o755)
    sums = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d != "DEBIAN")
        for f in sorted(files):
            path = os.path.join(directory, f)
            sums.append(f"{hashlib.md5(open(path, 'rb').read()).hexdigest()}  {os.path.relpath(path, root)}\n")
    open(os.path.join(control, "md5sums"), "w").writelines(sums)

    when = commit_time()
    for directory, subdirectories, files in os.walk(root):
        for entry in subdirectories + files:
            path = os.path.join(directory, entry)
            os.chmod(path, 0o755 if os.path.isdir(path) else os.stat(path).st_mode & 0o777)
            if when:
                os.utime(path, (when, when), follow_symlinks=False)
    os.chmod(root, 0o755)

    os.makedirs(args.out, exist_ok=True)
    package = os.path.join(args.out, name + ".deb")
    temporary = package + ".part"
    environment = dict(os.environ, SOURCE_DATE_EPOCH=str(when)) if when else None
    run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", root, temporary], env=environment, on_host=True)
    os.replace(temporary, package)
    print(f"make-deb: {os.path.relpath(package)} ({os.path.getsize(package) // 1024} KB; Depends: "
          f"{fields['@SHLIBS@']}, passwd)")


if __name__ == "__main__":
    main()
