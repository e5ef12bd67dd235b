// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CLINUXDISPLAY_H
#define TILTMAZE_CLINUXDISPLAY_H
/* The kernel's framebuffer and virtual-console interfaces, for Swift: the
 * structs come through as they are; request numbers that are function-like
 * macros (which Swift cannot import) are given as constants. */
#include <sys/ioctl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>

static const unsigned long cld_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
static const unsigned long cld_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
static const unsigned long cld_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;
static const unsigned long cld_KDGETMODE = KDGETMODE;
static const unsigned long cld_KDSETMODE = KDSETMODE;
static const unsigned long cld_VT_GETMODE = VT_GETMODE;
static const unsigned long cld_VT_SETMODE = VT_SETMODE;
static const unsigned long cld_VT_RELDISP = VT_RELDISP;
static const unsigned long cld_VT_GETSTATE = VT_GETSTATE;

/* Starts a child process that restores `console` to `kd_mode` and `*vt` once
 * the caller dies without writing a byte to the descriptor returned (the
 * write end of a pipe, close-on-exec); -1 with errno when it cannot. Writing a
 * byte and closing it dismisses the guard without a restore. */
int cld_console_guard(int console, int kd_mode, const struct vt_mode *vt);

#endif
