// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Memory shared with a device through `mmap(MAP_SHARED)`: a framebuffer's
/// pixels, a DRM dumb buffer. Unmapped in `deinit`.
public final class MemoryMapping {
    /// The first mapped byte.
    public let base: UnsafeMutableRawPointer
    /// Bytes mapped.
    public let length: Int

    /// Maps `length` bytes of `descriptor` from `offset`, readable and
    /// writable. The corresponding C function is `mmap`.
    public init(_ descriptor: FileDescriptor, length: Int, offset: Int64 = 0) throws(Errno) {
        guard let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, off_t(offset)),
              address != MAP_FAILED else {
            throw Errno(rawValue: errno)
        }
        base = address
        self.length = length
    }

    deinit { munmap(base, length) }
}
