// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// A libiio call or system call that failed: what was being done, to which
/// device, attribute, node or URI (`path`), and the errno it gave (`EINVAL`
/// for text that is not what was expected). The device wrappers' one error
/// shape (`DeviceError`).
public typealias IIOError = DeviceError
