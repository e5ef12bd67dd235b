// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_BENCH_CUMOCKDEV_SHIM_H
#define TILTMAZE_BENCH_CUMOCKDEV_SHIM_H
// umockdev's C API for the IIOLatency benchmark (a copy of ../../../Tests/CUmockdev,
// under its own module name so it cannot clash with the root package's target).
#include <umockdev.h>
#endif
