// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CEVDEV_SHIM_H
#define TILTMAZE_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif
