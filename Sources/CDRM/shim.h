// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CDRM_SHIM_H
#define TILTMAZE_CDRM_SHIM_H
/* libdrm (Debian libdrm-dev) for Swift: the structs and calls come through as
 * they are; values given by function-like macros, which Swift cannot import,
 * are given as constants. */
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/* 32-bit pixels, 8 bits a channel, the top byte unused: the format every
 * KMS driver offers for dumb buffers. */
static const uint32_t cdrm_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const int cdrm_EVENT_CONTEXT_VERSION = 2;

#endif
