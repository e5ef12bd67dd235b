// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Whole scans just read from a buffer, each as its bytes; decode them with
/// `IIOScanLayout.rawValue(of:in:)`.
///
/// A view into the buffer's memory, valid until the buffer's next read:
/// copy out what must outlive it. Iterating allocates nothing.
public struct IIOScans: RandomAccessCollection {
    /// All the scans' bytes, `count × scanSize` of them.
    public let bytes: UnsafeRawBufferPointer
    /// Bytes per scan (`IIOScanLayout.scanSize`).
    public let scanSize: Int

    @inlinable
    public init(bytes: UnsafeRawBufferPointer, scanSize: Int) {
        precondition(scanSize > 0 && bytes.count % scanSize == 0, "bytes must hold whole scans")
        self.bytes = bytes
        self.scanSize = scanSize
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { bytes.count / scanSize }

    /// The bytes of scan `i`.
    @inlinable
    public subscript(i: Int) -> UnsafeRawBufferPointer {
        precondition(i >= 0 && i < endIndex, "scan index out of range")
        return UnsafeRawBufferPointer(rebasing: bytes[(i * scanSize)..<((i + 1) * scanSize)])
    }

    /// Walks the scans in order without allocating (a concrete iterator, so
    /// even unoptimized builds need no generic boxing).
    public struct Iterator: IteratorProtocol {
        @usableFromInline let scans: IIOScans
        @usableFromInline var index = 0

        @inlinable init(_ scans: IIOScans) { self.scans = scans }

        @inlinable
        public mutating func next() -> UnsafeRawBufferPointer? {
            guard index < scans.endIndex else { return nil }
            defer { index += 1 }
            return scans[index]
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(self) }
}
