// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

// The C library of the platform TiltMaze is built for, in one place: every
// other module imports LibC, never Glibc or Musl itself. TiltMaze talks to
// Linux (IIO, evdev, i2c-dev, fbdev, KMS, virtual consoles): a C library
// other than Linux's glibc or musl is a platform it does not build for, and
// says so here rather than in a hundred missing symbols.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#else
#error("TiltMaze builds for Linux only, with glibc or musl")
#endif
