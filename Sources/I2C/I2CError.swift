// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// A failed call on an i2c-dev node: which operation, on which bus and
/// address (`path` reads "/dev/i2c-1 address 0x6a"), the errno. The same
/// shape as every device wrapper's error (`DeviceError`).
public typealias I2CError = DeviceError
