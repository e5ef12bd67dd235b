#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Installs TiltMaze, or removes exactly what it installed: the one list of
files that `make install`, `make uninstall` (and a package) share.

  scripts/install.py install   [--prefix /usr/local] [--destdir DIR] [--binary PATH] [--manuals DIR]
  scripts/install.py uninstall [--prefix /usr/local] [--destdir DIR]
  (--only udev: the rules, their helper and the hrtimer unit alone, as udev/install.sh wants)

What goes where (PREFIX /usr/local unless given):
  PREFIX/bin/tiltmaze                            the game and its tools
  PREFIX/lib/tiltmaze/tiltmaze-sysfs-access      the udev rules' helper
  UDEV/70-tiltmaze.rules                         the rules (helper path set to PREFIX's)
  UNITS/tiltmaze-hrtimer.service                 the boot-time hrtimer trigger (not enabled)
  UNITS/tiltmaze-console@.service                the game on a console at boot (tiltmaze kiosk enable)
  SYSUSERS/tiltmaze.conf                         the groups tiltmaze and i2c, for systemd-sysusers
  PREFIX/share/man/man1/tiltmaze.1, tiltmaze-SUBCOMMAND.1 (gzipped)
  PREFIX/share/bash-completion/completions/tiltmaze
  PREFIX/share/zsh/site-functions/_tiltmaze
  PREFIX/share/fish/vendor_completions.d/tiltmaze.fish
  PREFIX/share/doc/tiltmaze/udev.md, hardware.md, README.md, docs/*.md
                                                 the udev rules' instructions (udev/README.md; doctor
                                                 points here when run installed), the Pi's setup, and
                                                 the pages the program's help names as docs/NAME.md
  PREFIX/share/tiltmaze/recordings/              real motion to replay without hardware, with its licence
udev reads no rules under /usr/local, so with PREFIX /usr the rules and the
unit go to /usr/lib/udev/rules.d and /usr/lib/systemd/system (where a
package puts them), and otherwise to /etc/udev/rules.d and /etc/systemd/system;
the groups' declaration to /usr/lib/sysusers.d or /etc/sysusers.d alike.

Manual pages come from swift-argument-parser's generate-manual plugin and
completions from `tiltmaze --generate-completion-script`: made from the
command definitions, never written by hand. Uninstall removes each file
listed and then the directories it leaves empty, so that
`install --destdir T` then `uninstall --destdir T` leaves T empty.
A real install (no --destdir, as root) also makes the groups tiltmaze and
i2c where they are missing (systemd-sysusers, else groupadd), reloads udev
and gives an already loaded iio_trig_hrtimer's configfs directory to the
group; a staged one leaves that to the package's scripts. Uninstall keeps
the groups and says why (docs/installing.md)."""
import argparse
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# `make release`: the Swift runtime linked in statically, so the installed
# program needs no toolchain beside it (and a package depends on none).
RELEASE_BINARY = os.path.join(ROOT, ".build/static/release/tiltmaze")
MANUALS = os.path.join(ROOT, ".build/static/manuals")


def places(prefix):
    system = prefix == "/usr"
    return {
        "bin": f"{prefix}/bin",
        "helper": f"{prefix}/lib/tiltmaze",
        "udev": "/usr/lib/udev/rules.d" if system else "/etc/udev/rules.d",
        "units": "/usr/lib/systemd/system" if system else "/etc/systemd/system",
        "sysusers": "/usr/lib/sysusers.d" if system else "/etc/sysusers.d",
        "man": f"{prefix}/share/man/man1",
        "bash": f"{prefix}/share/bash-completion/completions",
        "zsh": f"{prefix}/share/zsh/site-functions",
        "fish": f"{prefix}/share/fish/vendor_completions.d",
        "doc": f"{prefix}/share/doc/tiltmaze",
        "recordings": f"{prefix}/share/tiltmaze/recordings",
    }


def manual_pages(manuals):
    """(generated file, installed name): tiltmaze.kiosk.enable.1 becomes tiltmaze-kiosk-enable.1, as man(1) looks it up."""
    pages = sorted(glob.glob(os.path.join(manuals, "tiltmaze*.1")))
    return [(page, os.path.basename(page)[:-2].replace(".", "-") + ".1") for page in pages]


def named_as_installed(page):
    """A subcommand's page as man and whatis find it: its title and its NAME
    entry are tiltmaze-play, as the file is; the synopsis still shows the
    command as it is typed, tiltmaze play."""
    # A blank line between paragraphs of a command's discussion is a paragraph break in mdoc.
    page = re.sub(r"(?<=\n)\n(?=[^.\n])", ".Pp\n", page)
    page = re.sub(r"^\.Dt (TILTMAZE\.\S+)", lambda m: ".Dt " + m.group(1).replace(".", "-"), page, flags=re.M)
    typed = re.search(r'^\.Nm "(tiltmaze [a-z -]+)"$', page, flags=re.M)
    if not typed:
        return page
    lines = page.split("\n")
    for i, line in enumerate(lines):
        if line == f'.Nm "{typed.group(1)}"':
            lines[i] = ".Nm " + typed.group(1).replace(" ", "-")
        elif line == ".Nm":
            lines[i] = f'.Nm "{typed.group(1)}"'
    return "\n".join(lines)


def without_hashbang(script):
    """bash-completion sources its files: a #! line there only misleads."""
    return script[script.index(b"\n") + 1:] if script.startswith(b"#!") else script


def file_list(prefix, manuals):
    """Every file installed: (where, mode, how to make its bytes)."""
    p = places(prefix)
    helper = f"{p['helper']}/tiltmaze-sysfs-access"

    def with_paths(path):
        """The file with the installed places of the helper and the program in it."""
        text = open(os.path.join(ROOT, path)).read()
        text = text.replace("/usr/local/lib/tiltmaze/tiltmaze-sysfs-access", helper)
        return lambda _: re.sub(r"(?<=[\s=])/usr/bin/tiltmaze\b", f"{p['bin']}/tiltmaze", text).encode()

    def copy(path):
        return lambda _: open(path, "rb").read()

    def completion(shell):
        return lambda binary: without_hashbang(subprocess.run([binary, "--generate-completion-script", shell],
                                                              check=True, capture_output=True).stdout)

    files = [
        (f"{p['bin']}/tiltmaze", 0o755, lambda binary: open(binary, "rb").read()),
        (helper, 0o755, copy(os.path.join(ROOT, "udev/tiltmaze-sysfs-access"))),
        (f"{p['udev']}/70-tiltmaze.rules", 0o644, with_paths("udev/70-tiltmaze.rules")),
        (f"{p['units']}/tiltmaze-hrtimer.service", 0o644, with_paths("udev/tiltmaze-hrtimer.service")),
        (f"{p['units']}/tiltmaze-console@.service", 0o644, with_paths("systemd/tiltmaze-console@.service")),
        (f"{p['sysusers']}/tiltmaze.conf", 0o644, copy(os.path.join(ROOT, "systemd/tiltmaze.sysusers"))),
        (f"{p['bash']}/tiltmaze", 0o644, completion("bash")),
        (f"{p['zsh']}/_tiltmaze", 0o644, completion("zsh")),
        (f"{p['fish']}/tiltmaze.fish", 0o644, completion("fish")),
        (f"{p['doc']}/udev.md", 0o644, copy(os.path.join(ROOT, "udev/README.md"))),
        (f"{p['doc']}/hardware.md", 0o644, copy(os.path.join(ROOT, "hardware.md"))),
        (f"{p['doc']}/README.md", 0o644, copy(os.path.join(ROOT, "README.md"))),
    ]
    # The program's help names these as docs/NAME.md: so they are, under the doc directory.
    for page in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        files.append((f"{p['doc']}/docs/{os.path.basename(page)}", 0o644, copy(page)))
    for name in ("broad-21-fast-combined.csv", "README.md", "LICENSE"):
        files.append((f"{p['recordings']}/{name}", 0o644, copy(os.path.join(ROOT, "recordings", name))))
    for page, name in manual_pages(manuals) if manuals else []:
        def manual(_, page=page, name=name):
            return gzip.compress(named_as_installed(open(page).read()).encode(), mtime=0)
        files.append((f"{p['man']}/{name}.gz", 0o644, manual))
    return files


def udev_part(prefix):
    """The files udev/install.sh installs by themselves, for a player who
    runs the game from the build tree: the helper, the rules, the hrtimer
    unit, the groups' declaration."""
    p = places(prefix)
    return {f"{p['helper']}/tiltmaze-sysfs-access", f"{p['udev']}/70-tiltmaze.rules",
            f"{p['units']}/tiltmaze-hrtimer.service", f"{p['sysusers']}/tiltmaze.conf"}


def stage(prefix, destdir, binary, manuals, say=print, only=None):
    """Writes every listed file (or those in `only`) under destdir; returns
    the paths installed (without destdir)."""
    if only is None and not os.access(binary, os.X_OK):
        sys.exit(f"install: no built binary at {binary}: run `make release` first")
    if only is None and not manual_pages(manuals):
        sys.exit(f"install: no manual pages in {manuals}: run `make release` first")
    files = [entry for entry in file_list(prefix, manuals) if only is None or entry[0] in only]
    installed = []
    for where, mode, make in files:
        target = destdir + where
        os.makedirs(os.path.dirname(target), exist_ok=True)
        data = make(binary)
        # Written beside, then renamed: an interrupted install leaves no half file.
        temporary = target + ".tmp-install"
        with open(temporary, "wb") as f:
            f.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        say(f"install: {target}")
        installed.append(where)
    return installed


def install(args):
    only = udev_part(args.prefix) if args.only == "udev" else None
    stage(args.prefix, args.destdir, args.binary, args.manuals, only=only)
    if not args.destdir and only is None:
        after_real_install(args.prefix)


# Where hrtimer triggers are made, once iio-trig-hrtimer is loaded (configfs).


def has_group(name):
    return subprocess.run(["getent", "group", name], capture_output=True).returncode == 0


def make_groups(prefix):
    """The groups of tiltmaze.conf, by systemd-sysusers where there is one; says which it made."""
    missing = [name for name in ("tiltmaze", "i2c") if not has_group(name)]
    if shutil.which("systemd-sysusers"):
        subprocess.run(["systemd-sysusers", f"{places(prefix)['sysusers']}/tiltmaze.conf"], check=True)
    else:
        for name in missing:
            subprocess.run(["groupadd", "--system", name], check=True)
    if "tiltmaze" in missing:
        print("install: made the group tiltmaze; add players with: usermod -aG tiltmaze NAME (then log in again)")
    if "i2c" in missing:
        print("install: made the group i2c, which the console unit joins for its I2C bus (Raspberry Pi OS has it already)")


def after_real_install(prefix):
    if os.geteuid() != 0:
        print("install: not root: the group tiltmaze and udev's reload are left to you (udev/README.md)", file=sys.stderr)
        return
    make_groups(prefix)
    if shutil.which("udevadm"):
        subprocess.run(["udevadm", "control", "--reload"], check=False)
        subprocess.run(["udevadm", "trigger", "--subsystem-match=iio", "--subsystem-match=input",
                        "--subsystem-match=graphics"], check=False)
    # Earlier versions let the group make hrtimer triggers and set triggers'
    # rates: take that back now rather than at the next boot.
    helper = f"{places(prefix)['helper']}/tiltmaze-sysfs-access"
    subprocess.run([helper, "tiltmaze", "revoke-triggers"], check=False)
    if not shutil.which("setfacl"):
        print("install: setfacl not found: the rules give controllers to the group tiltmaze with it; "
              "install it with: sudo apt-get install acl", file=sys.stderr)


def uninstall(args):
    listed = [where for where, _, _ in file_list(args.prefix, None)
              if args.only != "udev" or where in udev_part(args.prefix)]
    # The manual pages are whatever install found to install: take them as they stand.
    man = places(args.prefix)["man"]
    pages = glob.glob(f"{args.destdir}{man}/tiltmaze.1.gz") + glob.glob(f"{args.destdir}{man}/tiltmaze-*.1.gz")
    if args.only != "udev":
        listed += sorted(f"{man}/{os.path.basename(page)}" for page in pages)
    directories = set()
    for where in listed:
        target = args.destdir + where
        if os.path.lexists(target):
            os.remove(target)
            print(f"uninstall: {target}")
        directories.add(os.path.dirname(target))
    if not args.destdir:
        # On the system itself only our own directory goes: /etc/udev/rules.d and the like are shared.
        try:
            os.rmdir(places(args.prefix)["helper"])
        except OSError:
            pass
        if has_group("tiltmaze"):
            print("uninstall: the group tiltmaze is kept: device nodes and sysfs attributes carry its id until they are "
                  "made again (at the next boot), and a group later given that id would inherit their access; "
                  "after a reboot, sudo groupdel tiltmaze removes it")
        return
    # Staged: the directories install made, emptied now, up to DESTDIR (never above it, never one with other files).
    stop = args.destdir
    for directory in sorted(directories, key=len, reverse=True):
        while directory.startswith(stop) and os.path.abspath(directory) != stop:
            try:
                os.rmdir(directory)
            except OSError:
                break
            directory = os.path.dirname(directory)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["install", "uninstall"])
    parser.add_argument("--prefix", default="/usr/local")
    parser.add_argument("--destdir", default="")
    parser.add_argument("--binary", default=RELEASE_BINARY)
    parser.add_argument("--manuals", default=MANUALS)
    parser.add_argument("--only", choices=["udev"], help="the udev rules, their helper and the hrtimer unit alone")
    args = parser.parse_args()
    args.destdir = args.destdir.rstrip("/")
    if args.destdir:
        args.destdir = os.path.abspath(args.destdir)
    (install if args.action == "install" else uninstall)(args)


if __name__ == "__main__":
    main()
