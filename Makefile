# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# The two commands of README.md: `make play` and `make test`.
# Each installs the Debian packages it needs first (scripts/install-deps.sh).

SWIFT ?= swift
# Extra options for the player's builds (make play, release, install, deb):
# SWIFT_BUILD_FLAGS="--jobs 1" builds with one compile job, for a board with 1 GB.
SWIFT_BUILD_FLAGS ?=
export SWIFT_BUILD_FLAGS
# The thread-sanitizer build lives apart so it never invalidates the normal one.
TSAN_BUILD := .build-tsan
# The full ten million items under the sanitizer too (about three minutes on
# two cores); lower it for a quick local run: make test-tsan TSAN_STRESS_ITEMS=1000000
TSAN_STRESS_ITEMS ?= 10000000

# `make install` / `make uninstall`: where (scripts/install.py has the list).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: test-fresh play test check shellcheck run-qemu run-qemu-arm64 arm64-answers test-load build release install deb uninstall test-install test-deb deps-deb test-library test-qemu test-tsan test-arm64 release-arm64 deb-arm64 test-qemu-arm64 test-qemu-systemd bench-smoke deps-play deps-test bench golden clean

# SwiftPM colours diagnostics only when its output is a terminal, and a build
# whose flags changed is a build from scratch: `make play | tee log` and then
# `make play` rebuilt everything (146 s on this machine). Never colour them.
play: deps-play
	TILTMAZE_PLAY_ONLY=1 $(SWIFT) build -c release --no-color-diagnostics --product tiltmaze $(SWIFT_BUILD_FLAGS)
	.build/release/tiltmaze play $(ARGS)

# Each step says how long it took (scripts/timed.sh); the list is printed
# again at the end, so a CI log shows where its minutes went. The order, and
# what runs beside what, is scripts/test-all.sh's.
test: deps-test
	scripts/test-all.sh

# The quick tier for daily work: the build, the module layers, the rules'
# set-up, shellcheck and the Swift suite on this machine as it is, without
# the load, the emulation, the kernels or the packages (about 5 minutes
# after a first build). make test runs all of it, and everything else.
check: deps-test
	$(SWIFT) build
	python3 scripts/check-module-layers.py
	python3 scripts/check-deb.py --static
	scripts/check-shell.sh
	$(SWIFT) test

# shellcheck over every shell script of the tree (scripts/check-shell.sh finds
# them), alone: it installs nothing (without shellcheck it fails, saying so).
shellcheck:
	scripts/check-shell.sh

# The real-kernel tier: Debian's kernel booted in qemu runs scenarios against
# the built tiltmaze (scripts/qemu/README.md). TILTMAZE_SKIP_QEMU=1 skips it
# on a developer's machine; in CI (CI=true) asking to skip it is an error.
# Its guests run the release program the packages ship: what a board runs,
# and under TCG it takes half the guest CPU time of the debug build (the
# i2c scenario: 19 s against 39 s), which a CI machine slower than this one
# needs.
QEMU_PROGRAM := .build/static/release/tiltmaze
# The guest is an x86 machine that runs the binary under test: on a Pi
# (arm64) it cannot, and the tier is skipped there, saying so.
ifeq ($(shell uname -m),x86_64)
test-qemu: build release
	$(MAKE) --no-print-directory run-qemu

# The qemu tier on what is built already (scripts/test-all.sh runs it in a lane).
run-qemu:
	@if [ "$(TILTMAZE_SKIP_QEMU)" = 1 ] && [ "$(CI)" = true ]; then \
		echo "TILTMAZE_SKIP_QEMU=1 is not allowed in CI: the qemu tier must run" >&2; exit 1; fi
	python3 scripts/qemu/run.py --binary $(QEMU_PROGRAM) --out .build/qemu/std --timeout 1500 \
		--scenarios scripts/qemu/scenarios/smoke --scenarios scripts/qemu/scenarios/framebuffer \
		--scenarios scripts/qemu/scenarios/evdev --scenarios scripts/qemu/scenarios/controllers \
		--scenarios scripts/qemu/scenarios/iio --scenarios scripts/qemu/scenarios/sensorhub \
		--scenarios scripts/qemu/scenarios/nintendo --scenarios scripts/qemu/scenarios/i2c
	python3 scripts/qemu/run.py --binary $(QEMU_PROGRAM) --out .build/qemu/cirrus --vga cirrus --timeout 600 \
		--scenarios scripts/qemu/scenarios/cirrus
	python3 scripts/qemu/run.py --binary $(QEMU_PROGRAM) --out .build/qemu/virtio --vga virtio --timeout 600 \
		--scenarios scripts/qemu/scenarios/virtio
	scripts/qemu/test-systemd.sh

# The package under a real systemd: Debian 12 with systemd as PID 1, made
# once into TILTMAZE_SYSTEMD_ROOT (scripts/qemu/systemd-root.sh), booted on
# the tier's kernel; the package built now is installed there with apt-get,
# the kiosk enabled, the board rebooted into the game, which is played,
# checked for its sandbox, stopped, disabled and purged
# (scripts/qemu/scenarios/systemd). Part of test-qemu; alone, this target.
test-qemu-systemd: build release
	scripts/qemu/test-systemd.sh
else
test-qemu test-qemu-systemd run-qemu:
	@if [ "$(CI)" = true ]; then echo "the qemu tier needs an x86_64 host" >&2; exit 1; fi
	@echo "$@: skipped: its guest runs x86_64 binaries and this machine is $$(uname -m)" >&2
endif

# What install and deb ship: Swift's runtime linked in, built apart in
# .build/static, with the manual pages made from its command definitions.
release:
	scripts/build-release.sh

# `make && sudo make install` on a Pi: sudo's PATH has no swiftly swift, so
# with no swift on PATH the release built before is installed as it is
# (and none built is an error saying what to run), rather than failing to
# build, or building as root into the clone.
install:
	@if command -v $(SWIFT) >/dev/null 2>&1; then scripts/build-release.sh; \
	elif [ -x .build/static/release/tiltmaze ]; then \
		echo "install: no $(SWIFT) on PATH (sudo resets it): installing the release built before, .build/static/release/tiltmaze"; \
	else echo "install: no $(SWIFT) on PATH and no release built: run make release as yourself first, then sudo make install" >&2; exit 1; fi
	python3 scripts/install.py install --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

# tiltmaze_VERSION_ARCH.deb for this machine's architecture (scripts/make-deb.py).
deb: deps-deb release
	python3 scripts/make-deb.py

uninstall:
	python3 scripts/install.py uninstall --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

# make install into a temporary root, the installed binary, manual pages and
# completions used from there, then make uninstall: the root must be empty again.
test-install:
	scripts/check-install.sh

# make deb, its contents against install.py's list, lintian (errors fail),
# and apt-get install / purge inside an overlay of this machine's root.
test-deb: release
	python3 scripts/check-deb.py

# The install path from nothing (scripts/fresh-machine.sh): install-deps.sh test
# and arm64, the start of the arm64 root and a first build, in a throwaway
# Debian 12 root that sees none of this machine's caches. It needs root; as
# another user it is skipped, saying so, except in CI.
test-fresh:
	@if [ "$$(id -u)" = 0 ]; then scripts/fresh-machine.sh; \
	elif [ "$(CI)" = true ]; then echo "test-fresh needs root in CI" >&2; exit 1; \
	else echo "test-fresh: skipped: it needs root (sudo make test-fresh)" >&2; fi

# The LinuxMotion library as other programs see it: the examples (a package
# of their own, depending on it by path) built and run against monitor --json
# on the shipped BROAD recording, its DocC catalogue built without warnings,
# its public API checked against api/, and every Swift listing of the docs
# compiled in a package of its own.
test-library: build
	@# SwiftPM keeps a path dependency's list of source files from the last plan and does not see a
	@# file added in a subfolder of Sources/ since; dropping the plan makes it look again.
	rm -f Examples/.build/debug/description.json
	find .build/doc-listings -name description.json -delete 2>/dev/null || true
	$(SWIFT) build --package-path Examples
	python3 scripts/check-library-client.py .build/debug/tiltmaze Examples/.build/debug
	scripts/check-docs.sh
	python3 scripts/check-api.py
	python3 scripts/check-doc-listings.py

# The benchmarks are a package of their own (see Benchmarks/Package.swift).
# Every benchmark runs once, briefly, so one that no longer builds, sets up or
# passes its own checks fails the tests; no figure is judged (Benchmarks/run).
bench-smoke:
	cd Benchmarks && ./run --smoke

build:
	$(SWIFT) build

# The Swift suite with the CPUs and the disk kept busy (stress-ng), as
# `make test` runs it; RUNS=3 runs it three times in a row.
RUNS ?= 1
test-load: deps-test build
	@for i in $$(seq $(RUNS)); do echo "test-load: run $$i of $(RUNS)"; scripts/with-load.sh $(SWIFT) test || exit 1; done

# TiltMaze on aarch64, as a Raspberry Pi runs it. Cross-built natively, run
# under qemu-user in a Debian trixie arm64 root kept in TILTMAZE_ARM64_ROOT
# (scripts/arm64/roots.sh makes it once, about 10 minutes):
# - the whole Swift test suite (scripts/arm64/test.sh);
# - the arm64 package made and checked as test-deb checks the amd64 one,
#   installed in that root, and within trixie's glibc;
# - the same answers as this machine's programs: BROAD replays, headless
#   games and snapshots, byte for byte, of the release programs (the debug
#   pair too when same-answers.py is given it: emulated, ten times slower);
# - the arm64 program on Debian's arm64 kernel (test-qemu-arm64).
ARM64_BUILD := .build-arm64/aarch64-unknown-linux-gnu
# On an aarch64 machine (a Pi) `swift test` above already ran the suite natively.
ifeq ($(shell uname -m),x86_64)
test-arm64: build release
	$(TIMED) arm64-suite scripts/arm64/test.sh
	$(TIMED) arm64-release scripts/arm64/release.sh
	$(TIMED) arm64-deb python3 scripts/check-deb.py --arch arm64
	$(TIMED) arm64-answers $(MAKE) --no-print-directory arm64-answers
	$(TIMED) arm64-qemu $(MAKE) --no-print-directory run-qemu-arm64

# Same answers on what is built already (scripts/test-all.sh runs it in a lane).
arm64-answers:
	python3 scripts/arm64/same-answers.py .build/static/release/tiltmaze $(ARM64_BUILD)/release/tiltmaze
else
test-arm64:
	@if [ "$(CI)" = true ]; then echo "the arm64 tier needs an x86_64 host (it cross-builds from one)" >&2; exit 1; fi
	@echo "test-arm64: skipped: this machine is $$(uname -m), where swift test already ran the suite natively" >&2
endif

# The release program for aarch64 (static Swift runtime) and its manual pages.
release-arm64:
	scripts/arm64/release.sh

# tiltmaze_VERSION_arm64.deb for a Raspberry Pi (64-bit Raspberry Pi OS, trixie).
deb-arm64: deps-deb release-arm64
	python3 scripts/make-deb.py --arch arm64

# The qemu tier's scenarios whose code differs by architecture, with the
# arm64 release program (make release-arm64 builds it) on trixie's arm64 kernel
# under qemu-system-aarch64 (virt, Cortex-A72). The screens it draws must
# equal the pictures this machine's build draws. i2c-stub is not in that
# kernel: the i2c scenarios run on x86 only.
test-qemu-arm64: release release-arm64
	$(MAKE) --no-print-directory run-qemu-arm64

run-qemu-arm64:
	@if [ "$(TILTMAZE_SKIP_QEMU)" = 1 ] && [ "$(CI)" = true ]; then \
		echo "TILTMAZE_SKIP_QEMU=1 is not allowed in CI: the qemu tier must run" >&2; exit 1; fi
	python3 scripts/qemu/run.py --arch arm64 --binary $(ARM64_BUILD)/release/tiltmaze --hook-binary $(QEMU_PROGRAM) \
		--out .build/qemu/arm64-std --timeout 1800 \
		--scenarios scripts/qemu/scenarios/smoke --scenarios scripts/qemu/scenarios/framebuffer \
		--scenarios scripts/qemu/scenarios/evdev --scenarios scripts/qemu/scenarios/controllers \
		--scenarios scripts/qemu/scenarios/sensorhub --scenarios scripts/qemu/scenarios/nintendo
	python3 scripts/qemu/run.py --arch arm64 --binary $(ARM64_BUILD)/release/tiltmaze --hook-binary $(QEMU_PROGRAM) \
		--out .build/qemu/arm64-virtio --vga virtio --timeout 900 --scenarios scripts/qemu/scenarios/virtio

# The lock-free code again under ThreadSanitizer: data races fail the run.
test-tsan:
	TILTMAZE_STRESS_ITEMS=$(TSAN_STRESS_ITEMS) $(SWIFT) test --sanitize=thread --scratch-path $(TSAN_BUILD) \
		--filter 'HandoffTests|RealtimeTests|PhysicsLoopTests|SimulatedSourceTests|SensorThreadTests|SampleReaderTests'

deps-play:
	scripts/install-deps.sh play

deps-test:
	scripts/install-deps.sh test

deps-deb:
	scripts/install-deps.sh deb

bench:
	cd Benchmarks && ./run

# Redraws the golden framebuffer pictures (Tests/RenderTests/Golden) after a
# change to the look made on purpose; look at them before committing.
golden: deps-test
	TILTMAZE_UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenSnapshotTests

clean:
	rm -rf .build $(TSAN_BUILD) Benchmarks/.build
