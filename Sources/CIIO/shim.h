// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CIIO_SHIM_H
#define TILTMAZE_CIIO_SHIM_H
#include <iio.h>
#endif
