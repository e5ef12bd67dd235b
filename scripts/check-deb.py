#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""The Debian package as a user gets it (run by `make test-deb`, after `make release`):

S. first, and alone with `--static` (no build, no root: `make test` runs
   it before anything else), the scripts that set up the udev rules agree
   with the rules and each other: the package's postinst, install.py (make
   install), udev/install.sh and udev/README.md's steps re-trigger udev for
   exactly the subsystems 70-tiltmaze.rules names (a module is no device to
   re-trigger); postinst, install.py and udev/install.sh give an already
   loaded iio_trig_hrtimer's configfs directory to the group, which its rule
   does only when the module loads; udev/README.md's table has a row for
   each rule, in order, naming what the rule matches and grants; and the
   maintainer scripts remove no path that nothing else in the repository
   names (nothing writes it);
0. `make release` run again compiles and links nothing (a second `make deb`
   with no change rebuilds nothing in Swift);
1. built by scripts/make-deb.py into a temporary folder;
2. its contents (dpkg-deb --contents) are exactly install.py's list for
   PREFIX=/usr plus the copyright and changelog, owned by root, and the
   package is under 10 MB;
3. lintian finds no error (its warnings are printed);
4. installed for real: `apt-get install ./tiltmaze_*.deb` inside a chroot of
   this machine's own root seen through an overlay (in a mount namespace of
   its own, so nothing of the real system changes), which runs the package's
   maintainer scripts. It is installed as `sudo apt install` run by a player
   would be (SUDO_USER set): the group tiltmaze must appear with the player
   in it, the player's next login must see that in `tiltmaze doctor`, the
   program, its manual pages and completions must work from /usr; a
   reinstall (an upgrade's path) must add no one back; `dpkg --remove` with
   the kiosk off must take the program and units and keep a game's state;
   and `dpkg --purge` with the kiosk on must remove every file, the drop-in,
   the wants link and the state, and keep the groups.

udev's reload in the scripts is not exercised here: no udev daemon runs on
this machine, and the scripts skip that step where its control socket is
missing; that skip is what step 4 sees. The same scripts under a running
systemd and udev, the kiosk on: `make test-qemu-systemd`.
Step 4 needs root (mounting the overlay); CI runs as root, and there a
missing step is a failure, not a skip.

`--arch arm64` checks `make deb-arm64`'s package the same way, built from
scripts/arm64/release.sh's program: step 4 runs in an overlay of the trixie
arm64 root (emulated, as Raspberry Pi OS would run it), so apt-get install
proves that trixie satisfies every Depends; and no symbol the program needs
from glibc, nor the libc6 version Depends asks for, may be newer than
trixie's 2.41. The units' and kiosk's checks are not repeated there: they
are the same text files in both packages, and the arm64 root has no
systemd to read them."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import install  # noqa: E402

failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"check-deb: {what}" + (f"\n{detail}" if detail else ""), file=sys.stderr)


def source(path):
    return open(os.path.join(install.ROOT, path), encoding="utf-8").read()


RULES = "udev/70-tiltmaze.rules"
HRTIMER_DIR = "/sys/kernel/config/iio/triggers/hrtimer"
# What sets the rules up: the package, make install, and the build tree's script and steps.
SETUP = ["packaging/deb/postinst", "scripts/install.py", "udev/install.sh", "udev/README.md"]


def rules():
    """The rule lines of 70-tiltmaze.rules, in order (not the remove guard or the label)."""
    return [line for line in (l.strip() for l in source(RULES).splitlines())
            if line and not line.startswith("#") and not line.startswith(("ACTION==", "LABEL="))]


def rule_needs(rule):
    """What a row of udev/README.md's table must say for `rule`: the cells'
    text, and the end of the "who gets it" cell."""
    kernel = re.search(r'KERNEL=="([^"]+)"', rule)
    words = [re.sub(r"\[0-9\]\*|\*", "", kernel.group(1))] if kernel else []
    words += re.findall(r"ENV\{(\w+)\}", rule) + re.findall(r'ATTRS\{name\}=="([^"]+)"', rule)
    helper = re.search(r"tiltmaze-sysfs-access (\S+) (\w+)", rule)
    if helper:
        words.append(f"tiltmaze-sysfs-access {helper.group(1)} {helper.group(2)}")
    mode = re.search(r'MODE="(\d+)"', rule)
    if 'TAG+="uaccess"' in rule:
        words.append('`TAG+="uaccess"`')
        grants = "while logged in there"
    elif mode:
        words += ["`GROUP=`", "`MODE=`"]
        grants = f"(mode {mode.group(1)})"
    else:
        grants = ""
    return words, grants


def readme_rows():
    """The rows of udev/README.md's first table, as lists of cells."""
    lines = source("udev/README.md").splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("| what |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def scripts_agree():
    """Step S: see the docstring."""
    subsystems = set(re.findall(r'SUBSYSTEM=="(\w+)"', source(RULES))) - {"module"}
    for path in SETUP:
        text = source(path)
        asked = set(re.findall(r"--subsystem-match=([\w-]+)", text))
        check(f"{path} re-triggers udev for {sorted(asked)}, where {RULES} has rules for {sorted(subsystems)}",
              "trigger" in text and asked == subsystems)
    for path in SETUP[:3]:
        text = source(path)
        check(f"{path} does not take back what earlier versions gave the group on triggers "
              "(the helper's revoke-triggers)",
              re.search(r"[\"']?revoke-triggers\b", text) and HRTIMER_DIR not in text)
    listed, rows = rules(), readme_rows()
    check(f"udev/README.md's table has {len(rows)} rows for the {len(listed)} rules of {RULES}", len(rows) == len(listed))
    for rule, row in zip(listed, rows):
        words, grants = rule_needs(rule)
        text = " ".join(row)
        missing = [word for word in words if word not in text]
        check(f"udev/README.md's row for the rule\n    {rule}\n  does not name {missing}", not missing, "  row: " + text)
        check(f"udev/README.md's row for the rule\n    {rule}\n  does not grant {grants!r}", len(row) > 1 and row[1].endswith(grants),
              "  row: " + text)
    tracked = subprocess.run(["git", "-C", install.ROOT, "ls-files", "Sources", "scripts", "systemd", "udev", "packaging"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    everything = {path: open(os.path.join(install.ROOT, path), encoding="utf-8", errors="replace").read()
                  for path in tracked if os.path.isfile(os.path.join(install.ROOT, path))}
    for script in ("packaging/deb/postrm", "packaging/deb/prerm", "packaging/deb/postinst"):
        for removed in re.findall(r"^\s*rm(?:dir)?\s+(?:-\w+\s+)*(/\S+)", source(script), re.M):
            named = [path for path, text in everything.items()
                     if path != script and re.search(re.escape(removed) + r"(?![\w.-])", text)]
            check(f"{script} removes {removed}, which nothing else in the repository names (nothing writes it)", named)


def contents(package):
    listing = subprocess.run(["dpkg-deb", "--contents", package], capture_output=True, text=True, check=True).stdout
    files, owners = set(), set()
    for line in listing.splitlines():
        permissions, owner, *_rest = line.split(None, 5)
        path = line.split()[-1].lstrip(".")
        owners.add(owner)
        if not permissions.startswith("d"):
            files.add(path)
    return files, owners


# The chroot's part: apt-get install, use, purge. $1 the package inside the
# root, $2 the version it must print, $3 "units" where systemd is there to
# check the units and kiosk mode with.
INSIDE = r"""
set -u
fail() { echo "check-deb: $*" >&2; failed=1; }
failed=0
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
# This machine may have the group from a developer's own install: the package must make it.
groupdel tiltmaze 2>/dev/null
# Nor may it have i2c (a Pi has it; this build machine need not): the console unit names it.
groupdel i2c 2>/dev/null
useradd --create-home --shell /bin/sh player
# As `sudo apt install ./tiltmaze_*.deb` run by the player: sudo sets SUDO_USER.
# Recommends (udev) left out: this machine runs no udev, and everything else is already here.
SUDO_USER=player apt-get install -y -q --no-install-recommends "$1" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; fail "apt-get install ./deb failed"; exit 1; }
getent group tiltmaze >/dev/null || fail "postinst did not make the group tiltmaze"
grep -q "made the group tiltmaze" /tmp/apt.log || fail "postinst did not say it made the group"
getent group i2c >/dev/null || fail "postinst did not make the group i2c, which the console unit joins for its bus"
[ -f /usr/lib/sysusers.d/tiltmaze.conf ] || fail "the package has no sysusers.d declaration of its groups"
[ "$(/usr/bin/tiltmaze --version)" = "$2" ] || fail "the installed tiltmaze does not print $2"
MANWIDTH=80 man tiltmaze-play 2>/dev/null | grep -q "tiltmaze play" || fail "man tiltmaze-play finds no page"
man -w tiltmaze >/dev/null 2>&1 || fail "man tiltmaze finds no page"
grep -q calibrate /usr/share/bash-completion/completions/tiltmaze || fail "no bash completion"
grep -q /usr/lib/tiltmaze/tiltmaze-sysfs-access /usr/lib/udev/rules.d/70-tiltmaze.rules || fail "the rules do not call the packaged helper"
id -nG player | tr ' ' '\n' | grep -qx tiltmaze || fail "postinst did not add the sudo user to the group"
grep -q "added player to the group tiltmaze" /tmp/apt.log || fail "postinst did not say it added the player"
# A new login of the player: the group is theirs now, and doctor says so.
su player -c "tiltmaze doctor" >/tmp/doctor.txt 2>&1
grep -q "^OK   group: you are in group tiltmaze" /tmp/doctor.txt || { cat /tmp/doctor.txt >&2; fail "doctor as a member of tiltmaze did not see the group"; }
if [ "$3" = units ]; then
# The units as systemd reads them (their manual pages must be found too).
systemd-analyze verify tiltmaze-console@tty1.service tiltmaze-hrtimer.service >/tmp/verify.txt 2>&1 ||
    { cat /tmp/verify.txt >&2; fail "systemd-analyze verify finds fault with the units"; }
# Sandboxed like systemd's own services, the kiosk and the root one-shot that
# makes the hrtimer trigger alike: exposure 2.0 at most (the tool's threshold counts tenths).
for unit in tiltmaze-console@tty1.service tiltmaze-hrtimer.service; do
    systemd-analyze security --offline=true --threshold=20 $unit >/tmp/security.txt 2>&1 ||
        { cat /tmp/security.txt >&2; fail "systemd-analyze security rates $unit above 2.0"; }
    grep "Overall exposure level" /tmp/security.txt | sed 's/^/check-deb: /' >&2
done
# Kiosk mode on and off again: the unit enabled in the login prompt's place, and then everything as it was.
snapshot() { find /etc/systemd -printf '%p -> %l\n' | sort; }
before=$(snapshot)
getty_before=$(systemctl is-enabled getty@tty1.service 2>/dev/null)
tiltmaze kiosk enable --on-quit poweroff >/tmp/kiosk.txt 2>&1 || { cat /tmp/kiosk.txt >&2; fail "kiosk enable failed"; }
[ -L /etc/systemd/system/multi-user.target.wants/tiltmaze-console@tty1.service ] || fail "kiosk enable did not enable tiltmaze-console@tty1"
grep -qx "SuccessAction=poweroff" /etc/systemd/system/tiltmaze-console@tty1.service.d/kiosk.conf || fail "kiosk enable --on-quit poweroff wrote no SuccessAction"
[ "$(systemctl is-enabled getty@tty1.service 2>/dev/null)" = enabled ] && fail "kiosk enable left the login prompt on tty1"
systemd-analyze verify tiltmaze-console@tty1.service >/tmp/verify.txt 2>&1 ||
    { cat /tmp/verify.txt >&2; fail "systemd-analyze verify finds fault with the unit and kiosk's drop-in"; }
tiltmaze kiosk disable >/tmp/kiosk.txt 2>&1 || { cat /tmp/kiosk.txt >&2; fail "kiosk disable failed"; }
[ "$(snapshot)" = "$before" ] || { diff <(echo "$before") <(snapshot) >&2; fail "kiosk disable did not put /etc/systemd back as it was"; }
[ "$(systemctl is-enabled getty@tty1.service 2>/dev/null)" = "$getty_before" ] || fail "kiosk disable did not give the login prompt back"
fi
# Installing the same package again (an upgrade's path through the scripts) adds no one back:
# a player who left the group stays out.
gpasswd -d player tiltmaze >/dev/null
SUDO_USER=player apt-get install -y -q --no-install-recommends --reinstall "$1" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; fail "reinstall failed"; }
id -nG player | tr ' ' '\n' | grep -qx tiltmaze && fail "postinst added the player to the group again on a reinstall"
dpkg -L tiltmaze > /tmp/listed
# Removed, not purged, with the kiosk off: the program and its units go, a game's state stays
# (only a purge deletes it), the login prompt is as it was, and the package installs again.
[ "$3" = units ] && mkdir -p /var/lib/private/tiltmaze-console/tty1 && echo '{}' >/var/lib/private/tiltmaze-console/tty1/progress.json
dpkg --remove tiltmaze >/tmp/remove.log 2>&1 || { cat /tmp/remove.log >&2; fail "dpkg --remove failed"; }
[ -e /usr/bin/tiltmaze ] && fail "remove left /usr/bin/tiltmaze"
[ -e /usr/lib/systemd/system/tiltmaze-console@.service ] && fail "remove left the console unit"
if [ "$3" = units ]; then
    [ -f /var/lib/private/tiltmaze-console/tty1/progress.json ] || fail "remove (not purge) deleted the game's state"
    [ "$(systemctl is-enabled getty@tty1.service 2>/dev/null)" = "$getty_before" ] || fail "remove with the kiosk off changed the login prompt"
fi
apt-get install -y -q --no-install-recommends "$1" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; fail "installing again after a remove failed"; }
if [ "$3" = units ]; then
    # Purged with the kiosk still enabled, and with a game's state kept as DynamicUser keeps it.
    tiltmaze kiosk enable >/tmp/kiosk.txt 2>&1 || { cat /tmp/kiosk.txt >&2; fail "kiosk enable (before the purge) failed"; }
    mkdir -p /var/lib/private/tiltmaze-console/tty1 /var/lib/tiltmaze-console
    ln -s ../private/tiltmaze-console/tty1 /var/lib/tiltmaze-console/tty1
fi
dpkg --purge tiltmaze >/tmp/purge.log 2>&1 || { cat /tmp/purge.log >&2; fail "dpkg --purge failed"; }
while read -r path; do
    [ -f "$path" ] && fail "purge left $path"
done < /tmp/listed
[ -e /usr/lib/tiltmaze ] && fail "purge left /usr/lib/tiltmaze"
if [ "$3" = units ]; then
    for left in /etc/systemd/system/tiltmaze-console@tty1.service.d /etc/systemd/system/multi-user.target.wants/tiltmaze-console@tty1.service \
                /var/lib/tiltmaze-console /var/lib/private/tiltmaze-console; do
        { [ -e "$left" ] || [ -L "$left" ]; } && fail "purge with the kiosk enabled left $left"
    done
    [ "$(systemctl is-enabled getty@tty1.service 2>/dev/null)" = "$getty_before" ] ||
        { cat /tmp/purge.log >&2; fail "purge with the kiosk enabled did not give tty1 its login prompt back"; }
fi
# The groups stay: files may still carry their ids (sysusers.d's own advice).
getent group tiltmaze >/dev/null || fail "purge removed the group tiltmaze, whose id device files may still carry"
getent group i2c >/dev/null || fail "purge removed the group i2c, which is not the package's alone"
exit $failed
"""

# The namespace's part: the overlay, /proc and /dev for the chroot, then INSIDE.
NAMESPACE = r"""
set -eu
top=$1 package=$2 version=$3 lower=$4 units=$5
mkdir -p "$top/upper" "$top/work" "$top/root"
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$top/upper,workdir=$top/work" "$top/root"
mount -t proc proc "$top/root/proc"
mount --rbind /dev "$top/root/dev"
mount -t tmpfs tmpfs "$top/root/tmp"
mount -t tmpfs tmpfs "$top/root/run"
cp "$package" "$top/root/tmp/"
chroot "$top/root" /bin/bash -c "$INSIDE" inside "/tmp/$(basename "$package")" "$version" "$units"
"""


def install_for_real(package, version, lower="/", units=True):
    if os.geteuid() != 0:
        message = "not root: the install in an overlaid chroot (step 4) needs root to mount"
        if os.environ.get("CI") == "true":
            check(message, False)
        else:
            print(f"check-deb: skipped: {message}", file=sys.stderr)
        return
    top = tempfile.mkdtemp(prefix="tiltmaze-deb-root.")
    try:
        result = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", NAMESPACE,
                                 "namespace", top, package, version, lower, "units" if units else "no-units"],
                                env=dict(os.environ, INSIDE=INSIDE))
        check("the package did not install, work and purge as it should (above)", result.returncode == 0)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def rebuild_is_empty(script):
    """`make release` again on an unchanged tree (make test ran it just
    before) must compile and link nothing: a second `make deb` is quick."""
    run = subprocess.run([os.path.join(install.ROOT, script)], capture_output=True, text=True)
    work = [line for line in run.stdout.splitlines() if "Compiling" in line or "Linking" in line]
    check("make release failed when run again", run.returncode == 0, run.stderr[-2000:])
    check("make release on an unchanged tree built again:\n  " + "\n  ".join(work[:10]), not work)


TRIXIE_GLIBC = (2, 41)   # Raspberry Pi OS's, the oldest a Pi package must run on


def glibc_within_trixie(package, binary):
    """No libc6 in Depends, nor any GLIBC_x.y symbol version the program
    asks for, newer than trixie's: a Pi could not install or run it."""
    depends = subprocess.run(["dpkg-deb", "-f", package, "Depends"], capture_output=True, text=True).stdout
    for clause in depends.split(","):
        clause = clause.strip()
        if clause.startswith("libc6 (>="):
            wanted = tuple(int(x) for x in clause.split(">=")[1].strip(" )").split("-")[0].split(".")[:2])
            check(f"Depends asks for {clause}, newer than trixie's glibc 2.41", wanted <= TRIXIE_GLIBC)
    versions = subprocess.run(["readelf", "--version-info", "--wide", binary], capture_output=True, text=True).stdout
    needed = {tuple(int(x) for x in word[len("GLIBC_"):].split(".")[:2])
              for word in versions.split() if word.startswith("GLIBC_") and word[6:7].isdigit()}
    check("the program names no GLIBC_ symbol versions (readelf found none)", bool(needed))
    newest = max(needed, default=(0, 0))
    check(f"the program needs GLIBC_{newest[0]}.{newest[1]}, newer than trixie's 2.41", newest <= TRIXIE_GLIBC)
    return newest


def main():
    scripts_agree()
    if "--static" in sys.argv:
        if failures:
            sys.exit(1)
        print(f"check-deb: the re-trigger of udev, the revocation of old trigger grants and udev/README.md's table agree with the "
              f"{len(rules())} rules of {RULES} in {', '.join(SETUP)}; the maintainer scripts remove nothing unknown")
        return
    arm64 = "--arch" in sys.argv and sys.argv[sys.argv.index("--arch") + 1] == "arm64"
    if arm64:
        rebuild_is_empty("scripts/arm64/release.sh")
        binary = os.path.join(install.ROOT, ".build-arm64/aarch64-unknown-linux-gnu/release/tiltmaze")
        manuals = os.path.join(install.ROOT, ".build-arm64/manuals")
        root = os.path.join(os.environ.get("TILTMAZE_ARM64_ROOT", "/var/cache/tiltmaze/arm64-root"), "target")
        asks = [os.path.join(install.ROOT, "scripts/arm64/run-in.sh"), "target"]
    else:
        rebuild_is_empty("scripts/build-release.sh")
        binary, manuals, root, asks = install.RELEASE_BINARY, install.MANUALS, "/", []
    version = subprocess.run(asks + [binary, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    out = tempfile.mkdtemp(prefix="tiltmaze-deb.")
    try:
        subprocess.run([sys.executable, os.path.join(install.ROOT, "scripts/make-deb.py"), "--out", out]
                       + (["--arch", "arm64"] if arm64 else []), check=True)
        package = os.path.join(out, os.listdir(out)[0])
        newest = glibc_within_trixie(package, binary) if arm64 else None

        files, owners = contents(package)
        expected = {where for where, _, _ in install.file_list("/usr", manuals)}
        expected |= {"/usr/share/doc/tiltmaze/copyright", "/usr/share/doc/tiltmaze/changelog.gz"}
        check("the package's files differ from install.py's list", files == expected,
              f"  only in the package: {sorted(files - expected)}\n  only in the list: {sorted(expected - files)}")
        check(f"files in the package not owned by root: {owners}", owners == {"root/root"})
        size = os.path.getsize(package)
        check(f"the package is {size / 1e6:.1f} MB, over 10 MB", size < 10_000_000)

        if shutil.which("lintian"):
            lint = subprocess.run(["lintian", "--fail-on", "error", package], capture_output=True, text=True)
            print(lint.stdout, end="")
            # (On stderr it only says that running as root is not recommended.)
            check("lintian reports errors (above)", lint.returncode == 0, lint.stderr.strip())
        else:
            check("lintian is not installed: make deps-test installs it", False)

        install_for_real(package, version, lower=root, units=not arm64)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if failures:
        sys.exit(1)
    print(f"check-deb: {os.path.basename(package)}: {len(files)} files as install.py lists them, "
          f"{size // 1024} KB, no lintian error; "
          + (f"glibc symbols up to {newest[0]}.{newest[1]} (trixie has 2.41); installed with apt-get in an overlay "
             "of the trixie arm64 root" if arm64 else "installed with apt-get in an overlaid root")
          + ", group made, doctor run by a member, purged clean")


main()
