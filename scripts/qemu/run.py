#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
"""Boot a real Linux kernel in qemu and run guest scenarios against a binary.

    scripts/qemu/run.py --binary .build/debug/tiltmaze \\
        --scenarios scripts/qemu/scenarios/smoke --out /tmp/qemu-out

Steps: make sure the kernel cache exists (kernel.sh), stage the scenario
directories (running each one's optional `host-prepare` hook), build the
initramfs (initramfs.sh), boot qemu (TCG: no KVM is assumed), serve the guest's
control channel (second serial port) including SCREENDUMP requests through QMP,
then run each scenario directory's optional `host-check` hook on the output
directory. Exits 0 only if every scenario the guest was given reported PASS,
the guest finished (END) and every host-check passed; otherwise prints the tail
of the guest's console log and exits 1 (2 for a usage or setup error).

Python 3's standard library, and pypng (Debian's python3-png) to read the
screendumps (pngread.py). See README.md beside this file for the
protocol and the scenario conventions. TILTMAZE_SKIP_QEMU=1 skips the whole
run (exit 0).
"""

import argparse
import json
import os
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

try:
    from pngread import ball_position, equal_below, lit_rows, pacman_position, read_png, share_equal_below  # beside this script
except ImportError as e:  # no pypng: a setup error, unless the run is skipped anyway
    if os.environ.get("TILTMAZE_SKIP_QEMU") != "1":
        print(f"qemu: error: {e}", flush=True)
        sys.exit(2)
    ball_position = equal_below = lit_rows = pacman_position = read_png = share_equal_below = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HOOKS = ("host-prepare", "host-check")


def log(msg):
    print(f"qemu: {msg}", flush=True)


class SetupError(Exception):
    pass


class Terminated(Exception):
    pass


def on_signal(signum, _frame):
    raise Terminated(f"signal {signum}")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", help="ELF program to put in the guest as /usr/local/bin/NAME ($BINARY)")
    p.add_argument("--scenarios", action="append", default=[], metavar="DIR",
                   help="directory of *.sh guest scenarios (repeatable; contents are merged)")
    p.add_argument("--out", default=os.path.join(REPO, ".build", "qemu", "out"),
                   help="where screendumps, console.log and the results go (default .build/qemu/out)")
    p.add_argument("--vga", choices=("std", "cirrus", "virtio"), default="std",
                   help="emulated display: std (bochs DRM driver, or vesafb with vga=0x314), cirrus, or virtio (virtio-gpu)")
    p.add_argument("--append", default="", metavar="EXTRA",
                   help="extra kernel command line, e.g. 'vga=0x314'")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="overall limit in seconds for boot plus scenarios (default 120)")
    # Only a guard against a hang: scenarios take 5 to 40 s here, and a CI
    # machine running the emulation half as fast must not be cut off.
    p.add_argument("--scenario-timeout", type=int, default=180,
                   help="limit for each scenario in the guest, seconds (default 180)")
    # The initramfs (a debug build of tiltmaze with its libraries, ~160 MB
    # uncompressed) is unpacked into guest memory beside its own copy: 512 MiB
    # once ran short and the kernel dropped the archive's tail (the helpers).
    p.add_argument("--memory", type=int, default=1024, help="guest memory in MiB (default 1024)")
    p.add_argument("--cache", default=os.path.join(REPO, ".build", "qemu"),
                   help="cache directory (kernel subset in CACHE/kernel; default .build/qemu)")
    p.add_argument("--kernel", help="use this kernel image instead of the cached one")
    p.add_argument("--initrd", help="use this initramfs as it is (no --binary/--scenarios needed)")
    p.add_argument("--root-image", metavar="IMAGE",
                   help="boot this Debian root (ext4, from systemd-root.sh) with systemd as PID 1: a first stage "
                        "lays the scenarios into it, and qemu keeps the guest's writes in a temporary overlay (the "
                        "image is never changed); the guest may reboot, saying so first (REBOOT)")
    p.add_argument("--virtfs", metavar="DIR",
                   help="share host DIR read-write with the guest, mounted on /host")
    p.add_argument("--screendump-delay", type=float, default=0.3,
                   help="seconds to wait before each screendump (DRM fbdev emulation "
                        "flushes to the display on a timer; default 0.3)")
    p.add_argument("--arch", choices=("x86_64", "arm64"), default="x86_64",
                   help="the guest: x86_64 (pc, Debian bookworm's 6.1 kernel) or arm64 (virt with a Cortex-A72, "
                        "trixie's 6.12 kernel, the series Raspberry Pi OS runs; --binary must be an aarch64 program)")
    p.add_argument("--sysroot", default=os.path.join(os.environ.get("TILTMAZE_ARM64_ROOT", "/var/cache/tiltmaze/arm64-root"),
                                                     "target"),
                   help="arm64: the Debian arm64 root the guest's busybox and --binary's libraries come from, "
                        "and the hooks' C programs are built against (default: the arm64 tier's target root)")
    p.add_argument("--hook-binary", metavar="PROGRAM",
                   help="the tiltmaze the host-prepare and host-check hooks run to draw the pictures a screendump "
                        "must equal (default --binary; for arm64, this machine's build: the guest's picture must "
                        "then be the one x86 draws)")
    p.add_argument("--qemu", help="qemu binary (default qemu-system-x86_64 or qemu-system-aarch64)")
    p.add_argument("--qemu-arg", action="append", default=[], metavar="ARG",
                   help="extra qemu argument (repeatable), e.g. --qemu-arg=-d --qemu-arg=guest_errors")
    p.add_argument("--keep", action="store_true", help="keep the temporary work directory")
    p.add_argument("--tail", type=int, default=60, help="console lines to print on failure")
    p.add_argument("-v", "--verbose", action="store_true", help="echo the guest console as it runs")
    args = p.parse_args(argv)
    if not args.initrd and not args.binary and not args.root_image:
        p.error("--binary is required unless --initrd or --root-image is given")
    if args.root_image and args.arch != "x86_64":
        p.error("--root-image: the systemd root is made for x86_64 only")
    if args.arch == "arm64" and args.vga == "cirrus":
        p.error("arm64's virt machine has no Cirrus VGA: --vga std (bochs-display) or virtio")
    args.qemu = args.qemu or ("qemu-system-aarch64" if args.arch == "arm64" else "qemu-system-x86_64")
    return args


def cross_compiler(sysroot):
    """The C compiler a hook builds its guest helpers with (as $CC): for
    arm64, clang (the one Swift brings) targeting the arm64 root."""
    clang = shutil.which("clang")
    if clang is None and shutil.which("swift"):
        beside = os.path.join(os.path.dirname(os.path.realpath(shutil.which("swift"))), "clang")
        clang = beside if os.path.exists(beside) else None
    if clang is None:
        raise SetupError("no clang to build the arm64 guest's helpers with (Swift's toolchain brings one)")
    return f"{clang} --target=aarch64-linux-gnu --sysroot={sysroot} -fuse-ld=lld"


def machine_arguments(args, console, ctl):
    """qemu's machine, display and the two channels, per architecture. The
    arm64 virt machine has one serial port: the control channel is a virtio
    console there (/dev/hvc0), named to the guest's init on its command line."""
    if args.arch == "arm64":
        display = {"std": "bochs-display", "virtio": "virtio-gpu-pci"}[args.vga]
        return ([
            "-machine", "virt", "-cpu", "cortex-a72",
            "-device", display,
            "-serial", f"file:{console}",                 # ttyAMA0: console log
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=ctl,path={ctl}",
            "-device", "virtconsole,chardev=ctl",         # hvc0: control channel
        ], "console=ttyAMA0 tiltmaze.ctl=/dev/hvc0")
    return ([
        "-machine", "pc",
        "-vga", args.vga,
        "-serial", f"file:{console}",                     # ttyS0: console log
        "-chardev", f"socket,id=ctl,path={ctl}",
        "-serial", "chardev:ctl",                         # ttyS1: control channel
    ], "console=ttyS0")


def hook_env(args):
    """What a host-prepare or host-check hook may use: a tiltmaze this
    machine runs (to draw the picture a screendump should equal), as
    TILTMAZE_BINARY; the output directory, as TILTMAZE_QEMU_OUT; and the C
    compiler for the guest's helpers, as CC."""
    binary = args.hook_binary or args.binary
    env = dict(os.environ, TILTMAZE_BINARY=os.path.abspath(binary) if binary else "",
               TILTMAZE_QEMU_OUT=os.path.abspath(args.out), TILTMAZE_QEMU_ARCH=args.arch)
    if args.arch == "arm64":
        env["CC"] = cross_compiler(args.sysroot)
    return env


def run_checked(cmd, what, env=None):
    r = subprocess.run(cmd, env=env)
    if r.returncode != 0:
        raise SetupError(f"{what} failed (exit {r.returncode}): {' '.join(cmd)}")


def stage_scenarios(dirs, staging):
    """Copy every scenario directory into one staging directory; return the
    guest scenario names (the *.sh at the top level, sorted as the guest runs
    them) and the hook scripts found."""
    hooks = {h: [] for h in HOOKS}
    os.makedirs(staging, exist_ok=True)
    for d in dirs:
        if not os.path.isdir(d):
            raise SetupError(f"{d} is not a directory")
        for entry in sorted(os.listdir(d)):
            src = os.path.join(d, entry)
            if entry in HOOKS:
                hooks[entry].append(os.path.abspath(src))
                continue
            dst = os.path.join(staging, entry)
            if os.path.lexists(dst):
                raise SetupError(f"{entry} is in more than one scenario directory")
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst)
    names = sorted(e[:-3] for e in os.listdir(staging)
                   if e.endswith(".sh") and os.path.isfile(os.path.join(staging, e)))
    return names, hooks


class LineReader:
    """Splits a socket's bytes into text lines."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.closed = False

    def feed(self):
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return []
        if not data:
            self.closed = True
            return []
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return [l.decode("utf-8", "replace").strip("\r") for l in lines]


class QMP:
    def __init__(self, sock):
        self.sock = sock
        self.reader = LineReader(sock)
        self.pending = []
        greeting = self._next(10)
        if "QMP" not in greeting:
            raise SetupError(f"unexpected QMP greeting: {greeting}")
        self.command("qmp_capabilities")

    def _next(self, timeout):
        deadline = time.monotonic() + timeout
        while not self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from QMP")
            r, _, _ = select.select([self.sock], [], [], left)
            if r:
                self.pending += [l for l in self.reader.feed() if l.strip()]
                if self.reader.closed and not self.pending:
                    raise ConnectionError("QMP connection closed")
        return json.loads(self.pending.pop(0))

    def command(self, name, timeout=30, **arguments):
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self._next(timeout)
            if "event" in reply:
                continue
            if "error" in reply:
                raise RuntimeError(f"{name}: {reply['error'].get('desc', reply['error'])}")
            return reply.get("return")


def accept_both(listeners, proc, timeout):
    """qemu connects to our two listening sockets (control, QMP) as it starts."""
    conns = {}
    deadline = time.monotonic() + timeout
    while len(conns) < len(listeners):
        if proc.poll() is not None:
            raise SetupError(f"qemu exited at start-up (exit {proc.returncode})")
        left = deadline - time.monotonic()
        if left <= 0:
            raise SetupError("qemu did not connect to the control/QMP sockets")
        waiting = [l for k, l in listeners.items() if k not in conns]
        r, _, _ = select.select(waiting, [], [], min(left, 0.2))
        for l in r:
            key = next(k for k, v in listeners.items() if v is l)
            conns[key], _ = l.accept()
    return conns


def remove_previous_run(out):
    """Delete what an earlier run wrote into OUT (and nothing else)."""
    names = ["console.log", "qemu.log", "results.txt", "screendumps.txt"]
    try:
        with open(os.path.join(out, "screendumps.txt")) as f:
            names += [os.path.basename(l.strip()) for l in f if l.strip().endswith(".png")]
    except OSError:
        pass
    for name in names:
        try:
            os.unlink(os.path.join(out, name))
        except OSError:
            pass


def remove_abandoned_work_dirs():
    """A run killed with SIGKILL cannot clean up: remove work directories
    (~150 MB each) whose run.py process is gone."""
    tmp = tempfile.gettempdir()
    for entry in os.listdir(tmp):
        parts = entry.split(".")
        if len(parts) != 3 or parts[0] != "tiltmaze-qemu" or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        if os.path.exists(os.path.join(tmp, entry, "keep")):
            continue  # left on purpose with --keep
        shutil.rmtree(os.path.join(tmp, entry), ignore_errors=True)


def die_with_parent():
    """In the qemu child: get SIGKILL if run.py itself dies, however it dies."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


def stop(proc):
    """End qemu (its own process group) if it still runs, and reap it."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


SETTLE_INTERVAL = 0.25
SETTLE_LIMIT = 20.0


def settle(qmp, target, first_row, name):
    """Screendumps into `target` until two in a row agree from `first_row`
    down (above it a running clock may change), so a picture still being
    drawn by a slow guest is not taken for the finished one. After
    SETTLE_LIMIT seconds the last dump stays, for host-check to judge."""
    previous = None
    end = time.monotonic() + SETTLE_LIMIT
    while True:
        qmp.command("screendump", filename=target, format="png")
        rows = read_png(target)[2][first_row:]
        if rows == previous:
            return
        if time.monotonic() >= end:
            log(f"screendump {name}: still changing below row {first_row} after {SETTLE_LIMIT:.0f} s")
            return
        previous = rows
        time.sleep(SETTLE_INTERVAL)


BALL_INTERVAL = 0.5
BALL_LIMIT = 100.0


def until_moved(qmp, target, reference, name, move):
    """Screendumps into `target` until the player has made `move` (one of
    MOVES) from where it is in `reference`, however long the slow guest's
    game takes to move it there. Gives up after BALL_LIMIT seconds, a
    bound only a hang reaches."""
    where, axis, fraction, failure = move
    start, size = where(reference)
    goal = start + fraction * size
    end = time.monotonic() + BALL_LIMIT
    while True:
        qmp.command("screendump", filename=target, format="png")
        try:
            now, _ = where(target)
        except ValueError:
            now = None  # not drawn in this dump
        if now is not None and now > goal:
            return
        if time.monotonic() >= end:
            raise RuntimeError(f"{failure} within {BALL_LIMIT:.0f} s: at {axis}={now} in {name}, "
                               f"from {axis}={start:.0f}, needs more than {axis}={goal:.0f}")
        time.sleep(BALL_INTERVAL)


def pacman_y(path):
    (_, y), height = pacman_position(path)
    return y, height


# The moves a screendump can wait for (where the player is and the picture's
# size along that axis, the axis, the share of the size to go, the failure):
# the ball (--player ball) more than 5 cells right, cells a twelfth of the
# width (the corridor levels, as the host-checks then require); the pacman
# (the default player) more than a quarter of the height down.
MOVES = {
    "BALL-RIGHT-OF": (ball_position, "x", 5 / 12, "the ball did not roll right"),
    "PACMAN-BELOW": (pacman_y, "y", 1 / 4, "the pacman did not move down"),
}


JUDGED_INTERVAL = 0.5
JUDGED_LIMIT = 90.0
JUDGES = {}


def until_judged(qmp, target, judge, name):
    """Screendumps into `target` until `judge` (a picture's path -> whether
    the screen shows what the scenario checks for, and a line saying what
    it shows) holds, however long the slow guest takes to draw it: a single
    dump taken a moment early was once judged (and failed) where the game
    redrew soon after. After JUDGED_LIMIT seconds, a bound only a hang
    reaches, the last dump stays, for host-check to judge and name."""
    end = time.monotonic() + JUDGED_LIMIT
    while True:
        qmp.command("screendump", filename=target, format="png")
        try:
            ok, said = judge(target)
        except ValueError as e:
            ok, said = False, str(e)
        if ok:
            return
        if time.monotonic() >= end:
            log(f"screendump {name}: after {JUDGED_LIMIT:.0f} s still not as the scenario waits for: {said}")
            return
        time.sleep(JUDGED_INTERVAL)


def row_number(text):
    if not text.isdigit():
        raise RuntimeError(f"bad row {text!r}")
    return int(text)


def share(text):
    if not text.isdigit() or int(text) > 100:
        raise RuntimeError(f"bad percentage {text!r}")
    return int(text) / 100


# What a screendump can wait for the screen to show, judged against a
# picture (drawn by a host-prepare hook, or an earlier dump) in the output
# folder: the request's words after the name -> a judge of a dump.
def judges(out):
    picture = lambda name: os.path.join(out, name + ".png")  # noqa: E731

    def equal(wanted):
        def make(expected, row):
            def judge(got):
                same, said = equal_below(got, picture(expected), row_number(row))
                return same == wanted, said
            return judge
        return make

    def shared(holds):
        def make(expected, row, fraction):
            def judge(got):
                s = share_equal_below(got, picture(expected), row_number(row))
                return holds(s, share(fraction)), f"{s:.1%} of its pixels as in {expected}.png"
            return judge
        return make

    def dark(row):
        def judge(got):
            lit = lit_rows(got, row_number(row))
            return not lit, f"{len(lit)} rows lit from row {row} down"
        return judge

    return {
        "LIKE": (2, equal(True)),
        "UNLIKE": (2, equal(False)),
        "AT-LEAST": (3, shared(lambda s, f: s >= f)),
        "AT-MOST": (3, shared(lambda s, f: s <= f)),
        "DARK": (1, dark),
    }


def tail(path, n):
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return "(no console log)"
    return "\n".join(lines[-n:])


def main(argv):
    if os.environ.get("TILTMAZE_SKIP_QEMU") == "1":
        log("skipped (TILTMAZE_SKIP_QEMU=1)")
        return 0
    args = parse_args(argv)
    global JUDGES
    JUDGES = judges(args.out)
    if shutil.which(args.qemu) is None:
        log(f"{args.qemu} not found (host package: {'qemu-system-arm' if args.arch == 'arm64' else 'qemu-system-x86'})")
        return 2

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    os.makedirs(args.out, exist_ok=True)
    remove_abandoned_work_dirs()
    # In the temporary directory: a short path (unix socket names are limited
    # to ~108 bytes) that is removed on exit.
    work = tempfile.mkdtemp(prefix=f"tiltmaze-qemu.{os.getpid()}.")
    proc = None
    listeners = {}
    conns = {}
    qemu_log = None
    console = os.path.join(args.out, "console.log")
    try:
        remove_previous_run(args.out)

        # Kernel.
        kcache = os.path.join(args.cache, "kernel-arm64" if args.arch == "arm64" else "kernel")
        if args.kernel:
            kernel = args.kernel
        else:
            run_checked([os.path.join(HERE, "kernel.sh"), kcache] + (["arm64"] if args.arch == "arm64" else []),
                        "kernel.sh")
            kernel = os.path.join(kcache, "vmlinuz")
        if args.arch == "arm64" and not os.path.isdir(os.path.join(args.sysroot, "usr")):
            raise SetupError(f"no arm64 root at {args.sysroot}: make it with scripts/arm64/roots.sh")

        # Scenarios and initramfs.
        hooks = {h: [] for h in HOOKS}
        if args.initrd:
            initrd = args.initrd
            expected = None   # unknown: trust the guest's END line
        else:
            staging = os.path.join(work, "scenario")
            expected, hooks = stage_scenarios(args.scenarios, staging)
            if not expected:
                log("warning: no scenarios (*.sh) given; the guest will only boot")
            # kdmode (a console's text or graphics mode; with "text", sets it)
            # for every run: the scenarios check the console with it, and
            # init puts tty1 back in text mode with it between scenarios.
            env = hook_env(args)
            run_checked(shlex.split(env.get("CC", "cc")) + ["-static", "-O2", "-o", os.path.join(staging, "kdmode"),
                                                           os.path.join(HERE, "tools", "kdmode.c")], "building kdmode")
            for hook in hooks["host-prepare"]:
                run_checked([hook, staging], hook, env=env)
            initrd = os.path.join(work, "initramfs.cpio")  # uncompressed: boots faster
            env = dict(os.environ, QEMU_KERNEL_CACHE=kcache)
            if args.arch == "arm64":
                env["TILTMAZE_QEMU_SYSROOT"] = args.sysroot
            if args.root_image:
                env["TILTMAZE_QEMU_INIT"] = "systemd"  # the program comes from its package in the root
            t = time.monotonic()
            run_checked([os.path.join(HERE, "initramfs.sh"), initrd, "-" if args.root_image else args.binary, staging],
                        "initramfs.sh", env=env)
            log(f"initramfs {os.path.getsize(initrd) / 1e6:.1f} MB built in {time.monotonic() - t:.1f} s")

        # Sockets qemu connects to as a client: we listen first so no guest
        # output can be lost before we are there.
        paths = {"ctl": os.path.join(work, "ctl.sock"), "qmp": os.path.join(work, "qmp.sock")}
        for key, path in paths.items():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.listen(1)
            listeners[key] = s

        machine, console_args = machine_arguments(args, console, paths["ctl"])
        cmdline = (f"{console_args} rdinit=/init panic=-1 quiet "
                   f"tiltmaze.timeout={args.scenario_timeout}")
        if args.virtfs:
            cmdline += " tiltmaze.virtfs=1"
        if args.append:
            cmdline += " " + args.append
        if args.root_image and not os.path.isfile(args.root_image):
            raise SetupError(f"no root image {args.root_image}: make it with scripts/qemu/systemd-root.sh")
        cmd = [
            args.qemu,
            "-accel", "tcg",          # no usable KVM is assumed
            *machine,
            "-m", str(args.memory),
            "-smp", "1",
            "-nodefaults", "-no-user-config",   # no NIC, no CD-ROM, no default monitor
            "-display", "none",
            # With panic=-1 a guest panic ends qemu; a systemd guest reboots
            # on purpose, and an unannounced boot (a panic) fails the run.
            *([] if args.root_image else ["-no-reboot"]),
            "-kernel", kernel,
            "-initrd", initrd,
            "-append", cmdline,
            "-chardev", f"socket,id=qmp,path={paths['qmp']}",
            "-mon", "chardev=qmp,mode=control",
        ]
        if args.root_image:
            # snapshot=on: writes go to a temporary overlay that lives as long
            # as qemu (across the guest's reboots) and is dropped after.
            cmd += ["-drive", f"file={os.path.abspath(args.root_image)},if=virtio,format=raw,snapshot=on"]
        if args.virtfs:
            cmd += ["-virtfs", f"local,path={os.path.abspath(args.virtfs)},mount_tag=host0,"
                               "security_model=none,id=host0"]
        cmd += args.qemu_arg
        qemu_log = open(os.path.join(args.out, "qemu.log"), "wb")
        start = time.monotonic()
        deadline = start + args.timeout
        before = os.times()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=qemu_log,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=die_with_parent)
        conns = accept_both(listeners, proc, 30)
        qmp = QMP(conns["qmp"])
        ctl = conns["ctl"]
        reader = LineReader(ctl)

        results = {}        # name -> (PASS|FAIL, rc)
        started = []
        ended = None
        boots = 0
        reboot_announced = False
        unannounced_boot = False
        problems = []
        shots = []
        console_pos = 0
        timed_out = False
        def reply(text):
            try:
                ctl.sendall((text + "\n").encode())
            except OSError:
                pass  # qemu is gone; the verdict below says so

        def handle(line):
            nonlocal ended, boots, reboot_announced, unannounced_boot
            words = line.split()
            if not words:
                return
            now = time.monotonic() - start
            if words[0] == "READY":
                uptime = words[1] if len(words) > 1 else "?"
                boots += 1
                if boots > 1 and not reboot_announced:
                    unannounced_boot = True
                reboot_announced = False
                log(f"guest init running after {now:.1f} s (guest uptime {uptime} s" +
                    (f", boot {boots})" if boots > 1 else ")"))
            elif words[0] == "REBOOT" and len(words) == 1:
                reboot_announced = True
                log(f"the guest reboots, as its scenario asked, at {now:.1f} s")
            elif words[0] == "START" and len(words) == 2:
                started.append(words[1])
            elif words[0] == "SCENARIO" and len(words) == 4:
                results[words[1]] = (words[2], words[3])
                log(f"{words[1]}: {words[2]} (rc {words[3]}) at {now:.1f} s")
            elif words[0] == "SCREENDUMP" and ((len(words) in (2, 4) and (len(words) == 2 or
                                                                         words[2] in ("SETTLED", *MOVES))) or
                                               (len(words) > 2 and len(words) == 3 + JUDGES.get(words[2], (-9,))[0])):
                name = words[1]
                target = os.path.abspath(os.path.join(args.out, name + ".png"))
                time.sleep(args.screendump_delay)
                try:
                    moved = len(words) == 4 and words[2] in MOVES
                    judged = len(words) > 2 and words[2] in JUDGES
                    for n in [name] + (words[3:] if moved or judged else []):
                        if not n.replace(".", "").replace("_", "").replace("-", "").isalnum():
                            raise RuntimeError("bad name")
                    if judged:
                        until_judged(qmp, target, JUDGES[words[2]][1](*words[3:]), name)
                    elif moved:
                        until_moved(qmp, target, os.path.join(args.out, words[3] + ".png"), name, MOVES[words[2]])
                    elif len(words) == 4:
                        settle(qmp, target, int(words[3]), name)
                    else:
                        qmp.command("screendump", filename=target, format="png")
                    shots.append(target)
                    with open(os.path.join(args.out, "screendumps.txt"), "a") as f:
                        f.write(os.path.basename(target) + "\n")
                    reply(f"DONE {name}")
                except Exception as e:  # tell the guest, whose screendump helper then fails
                    problems.append(f"screendump {name}: {e}")
                    reply(f"ERROR {name} {str(e).replace(chr(10), ' ')}")
            elif words[0] == "END":
                ended = words[1:]
            else:
                log(f"unexpected line on the control channel: {line!r}")

        while True:
            if args.verbose:
                console_pos = echo_console(console, console_pos)
            exited = proc.poll() is not None
            left = deadline - time.monotonic()
            if not exited and left <= 0:
                timed_out = True
                break
            if unannounced_boot:
                stop(proc)   # a guest that panicked and rebooted would go round again
                break
            # Once qemu has exited, only drain what it wrote before (no waiting).
            r, _, _ = select.select([ctl], [], [], 0 if exited else min(left, 0.2))
            if r:
                for line in reader.feed():
                    handle(line)
            if reader.closed:
                # qemu closes the socket as it exits; give it a moment.
                try:
                    proc.wait(timeout=max(0.1, min(10, deadline - time.monotonic())))
                except subprocess.TimeoutExpired:
                    pass
                break
            if exited and not r:
                break
        elapsed = time.monotonic() - start
        if timed_out:
            stop(proc)
        if proc.poll() is None and ended is not None and not timed_out:
            # The guest powered off; qemu should be on its way out.
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                problems.append("qemu did not exit after the guest powered off")
        if timed_out:
            problems.append(f"overall time limit of {args.timeout:.0f} s reached; qemu killed")
        if unannounced_boot:
            problems.append("the guest booted again without saying REBOOT first (a panic?); qemu stopped")
        if args.verbose:
            echo_console(console, console_pos)

        # Verdict.
        names = expected if expected is not None else sorted(set(started) | set(results))
        passed = [n for n in names if results.get(n, ("",))[0] == "PASS"]
        failed = [n for n in names if n in results and results[n][0] != "PASS"]
        missing = [n for n in names if n not in results]
        for n in missing:
            problems.append(f"scenario {n} did not report" + (" (it started)" if n in started else ""))
        if ended is None:
            problems.append("the guest did not finish (no END line: crash, panic or time-out)")
        try:
            with open(console, errors="replace") as f:
                if "Initramfs unpacking failed" in f.read():
                    problems.append("the kernel could not unpack the whole initramfs (guest memory too small for it: "
                                    "raise --memory); files at its end, the guest helpers among them, are missing")
        except OSError:
            pass

        for hook in hooks["host-check"]:
            r = subprocess.run([hook, os.path.abspath(args.out)], env=hook_env(args))
            if r.returncode != 0:
                problems.append(f"host-check {hook} failed (exit {r.returncode})")

        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        with open(os.path.join(args.out, "results.txt"), "w") as f:
            for n in names:
                state, rc = results.get(n, ("MISSING", "-"))
                f.write(f"{n} {state} {rc}\n")
        log(f"qemu ran {elapsed:.1f} s wall, {cpu:.1f} s CPU; "
            f"{len(shots)} screendump(s) in {args.out}")
        ok = not failed and not missing and not problems
        if not ok:
            for p in problems:
                log(f"problem: {p}")
            for n in failed:
                log(f"failed: {n} (rc {results[n][1]})")
            print(f"--- last {args.tail} lines of the guest console ({console}) ---")
            print(tail(console, args.tail))
            qlog = tail(os.path.join(args.out, "qemu.log"), 20).strip()
            if qlog:
                print("--- qemu's own output ---")
                print(qlog)
            for n in failed:
                # CI keeps only the last lines of a run, so each failing
                # scenario's own output is repeated here, last before the verdict.
                print(f"--- scenario {n}'s output (last 20 lines) ---")
                print(scenario_output(console, n, 20))
            print("---")
        verdict = f"qemu: {len(passed)} passed, {len(names) - len(passed)} failed"
        if not ok:
            named = [f"{n} (rc {results[n][1]})" for n in failed] + [f"{n} (no report)" for n in missing]
            verdict += (": " + ", ".join(named) if named else "") + (f"; {len(problems)} problem(s) above" if problems else "")
        print(verdict, flush=True)
        return 0 if ok else 1
    except SetupError as e:
        log(f"error: {e}")
        if proc is not None:
            print(tail(console, args.tail))
            qemu_log and qemu_log.flush()
            print(tail(os.path.join(args.out, "qemu.log"), 20))
        return 2
    except (Terminated, KeyboardInterrupt) as e:
        log(f"interrupted ({e or 'Ctrl-C'}); stopping qemu")
        return 130
    finally:
        if proc is not None:
            stop(proc)
        for s in list(conns.values()) + list(listeners.values()):
            s.close()
        if qemu_log:
            qemu_log.close()
        if args.keep:
            open(os.path.join(work, "keep"), "w").close()
            log(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def scenario_output(path, name, n):
    """The last n lines the guest printed for one scenario, between its
    start line and its result line."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return f"(console unreadable: {e})"
    # A systemd guest's lines come with the kernel's time and the unit's
    # name before them ("[  26.1] runner[182]: === scenario ...").
    head = f"=== scenario {name}: "
    starts = [i for i, line in enumerate(lines) if head + "start" in line]
    if not starts:
        return "(no start line on the console)"
    body = []
    for line in lines[starts[-1] + 1:]:
        body.append(line)
        if head in line:
            break
    return "\n".join(body[-n:])


def echo_console(path, pos):
    try:
        with open(path, "rb") as f:
            f.seek(pos)
            data = f.read()
    except OSError:
        return pos
    if data:
        sys.stdout.write(data.decode("utf-8", "replace"))
        sys.stdout.flush()
    return pos + len(data)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
