#!/usr/bin/env python3
"""Builds tiltmaze_VERSION_ARCH.deb from `make release`'s binary and manual
pages, with the same list of files as `make install PREFIX=/usr`
(scripts/install.py) plus the package's own documents.

  scripts/make-deb.py [--out DIR]      (default: the project root)

- VERSION is what `tiltmaze --version` prints (Sources/tiltmaze/Version.swift);
  packaging/deb/changelog must have an entry for it, or nothing is built.
- ARCH is `dpkg --print-architecture`: amd64 here, arm64 or armhf on a Pi.
- Depends: the shared libraries the binary needs, found by dpkg-shlibdeps,
  then acl (the udev rules run setfacl) and passwd (the scripts run groupadd).
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


def run(command, **options):
    result = subprocess.run(command, capture_output=True, text=True, **options)
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
    output = run(["dpkg-shlibdeps", "-O", "-e" + binary], cwd=work)
    for line in output.splitlines():
        if line.startswith("shlibs:Depends="):
            return line.split("=", 1)[1]
    fail(f"dpkg-shlibdeps named no libraries for {binary}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=ROOT)
    parser.add_argument("--binary", default=install.RELEASE_BINARY)
    parser.add_argument("--manuals", default=install.MANUALS)
    args = parser.parse_args()
    for tool in ["dpkg-deb", "dpkg-shlibdeps", "strip"]:
        if not shutil.which(tool):
            fail(f"{tool} is missing: apt-get install dpkg-dev binutils")
    if not os.access(args.binary, os.X_OK):
        fail(f"no built binary at {args.binary}: run `make release` first")

    version = run([args.binary, "--version"]).strip()
    if changelog_version() != version:
        fail(f"packaging/deb/changelog's newest entry is {changelog_version()}, the program is {version}: "
             "add an entry for this version at its top")
    arch = run(["dpkg", "--print-architecture"]).strip()
    name = f"tiltmaze_{version}_{arch}"
    work = os.path.join(ROOT, ".build/deb", name)
    shutil.rmtree(work, ignore_errors=True)
    root = os.path.join(work, "root")

    install.stage("/usr", root, args.binary, args.manuals, say=lambda _: None)
    binary = root + "/usr/bin/tiltmaze"
    run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", binary])

    doc = root + "/usr/share/doc/tiltmaze"
    os.makedirs(doc)
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
    run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", root, temporary], env=environment)
    os.replace(temporary, package)
    print(f"make-deb: {os.path.relpath(package)} ({os.path.getsize(package) // 1024} KB; Depends: "
          f"{fields['@SHLIBS@']}, acl, passwd)")


if __name__ == "__main__":
    main()
