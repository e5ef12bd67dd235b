// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CUMOCKDEV_SHIM_H
#define TILTMAZE_CUMOCKDEV_SHIM_H
#include <umockdev.h>
#endif
