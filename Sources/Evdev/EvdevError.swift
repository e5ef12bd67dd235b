// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// An evdev call that failed: which call, on which node (`path`), and the
/// errno it gave (ENODEV: the device is gone, `isDeviceGone`). The device
/// wrappers' one error shape (`DeviceError`).
public typealias EvdevError = DeviceError
