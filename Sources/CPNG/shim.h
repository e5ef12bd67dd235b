// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CPNG_SHIM_H
#define TILTMAZE_CPNG_SHIM_H
#include <png.h>
#endif
