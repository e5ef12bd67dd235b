// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import SystemCalls

/// Where each enabled scan element sits in a scan, and how to take its raw
/// value out: the demultiplexing half of buffered capture.
///
/// Offsets follow the kernel's rules (`iio_compute_scan_bytes` in
/// drivers/iio/industrialio-buffer.c): elements in scan-index order, each
/// aligned to its own size (storage bytes × repeat), so a 64-bit timestamp
/// after three 16-bit values starts at byte 8, not 6; the scan is padded to
/// a multiple of its largest element. Elements whose size is not a power of
/// two (e.g. `X3` repeats) are refused: the kernel's `ALIGN` is only
/// meaningful for powers of two.
///
/// Decoding (`rawValue(of:in:)`) allocates nothing and is `@inlinable`: it
/// runs for every element of every scan on the sensor thread.
public struct IIOScanLayout: Sendable, Hashable {
    /// One scan element: a channel, its format and its byte offset.
    public struct Element: Sendable, Hashable {
        public let channelID: String
        public let scanIndex: Int
        public let format: IIOScanFormat
        /// Byte offset of the element's first value within a scan.
        public let offset: Int
    }

    /// Everything `rawValue` needs for one element, precomputed.
    @usableFromInline
    struct Decoder: Sendable, Hashable {
        @usableFromInline let offset: Int
        @usableFromInline let storageBytes: Int
        @usableFromInline let repeatCount: Int
        @usableFromInline let bigEndian: Bool
        @usableFromInline let shift: UInt64
        @usableFromInline let mask: UInt64
        /// 64 − bits for signed formats (shift up, then arithmetic shift
        /// down, to sign-extend), 0 for unsigned ones.
        @usableFromInline let signExtension: UInt64

        init(offset: Int, format: IIOScanFormat) {
            self.offset = offset
            storageBytes = format.storageBytes
            repeatCount = format.repeatCount
            bigEndian = format.endianness == .big
            shift = UInt64(format.shift)
            mask = format.bits >= 64 ? .max : (UInt64(1) << UInt64(format.bits)) - 1
            signExtension = format.isSigned ? UInt64(64 - format.bits) : 0
        }
    }

    /// The elements, in scan-index order.
    public let elements: [Element]
    @usableFromInline let decoders: [Decoder]
    /// Bytes per scan, padding included: what the kernel writes per scan.
    public let scanSize: Int

    /// Lays out the given scan elements (in any order; they are sorted by
    /// scan index). Channels sharing a scan index share its bytes.
    public init(elements input: [(channelID: String, scanIndex: Int, format: IIOScanFormat)]) throws(IIOError) {
        let sorted = input.enumerated().sorted { ($0.element.scanIndex, $0.offset) < ($1.element.scanIndex, $1.offset) }
            .map(\.element)
        var elements: [Element] = []
        var size = 0, largest = 1
        for item in sorted {
            let length = item.format.size
            guard length > 0, length & (length - 1) == 0 else {
                throw IIOError(errno: ENOTSUP, operation: "lay out scan element \(item.channelID) (\(item.format))",
                               path: item.channelID,
                               detail: "an element of \(length) bytes is not a power of two, so its alignment is undefined")
            }
            if let last = elements.last, last.scanIndex == item.scanIndex {
                elements.append(Element(channelID: item.channelID, scanIndex: item.scanIndex, format: item.format,
                                        offset: last.offset))
                continue
            }
            size = (size + length - 1) & ~(length - 1)
            elements.append(Element(channelID: item.channelID, scanIndex: item.scanIndex, format: item.format,
                                    offset: size))
            size += length
            largest = max(largest, length)
        }
        self.elements = elements
        self.decoders = elements.map { Decoder(offset: $0.offset, format: $0.format) }
        self.scanSize = (size + largest - 1) & ~(largest - 1)
    }

    /// The layout of the channels enabled now in libiio's mask (see
    /// `IIOChannel.enable()`), which a buffer created next will capture.
    /// Fails when an enabled channel's format cannot be decoded.
    public init(enabledChannelsOf device: IIODevice) throws(IIOError) {
        var input: [(channelID: String, scanIndex: Int, format: IIOScanFormat)] = []
        for channel in device.channels where channel.isScanElement && channel.isEnabled {
            guard let index = channel.scanIndex else { continue }
            input.append((channel.id, index, try channel.format))
        }
        try self.init(elements: input)
    }

    /// The position in `elements` of the channel with this id, if enabled.
    public func elementIndex(of channelID: String) -> Int? {
        elements.firstIndex { $0.channelID == channelID }
    }

    /// The raw value of element `element` (its `repetition`th value for
    /// repeated formats) in one scan: byte order fixed, shifted down, masked
    /// to its bits, sign-extended. Scale and offset are not applied (that is
    /// the caller's, as the kernel and libiio leave it). Unsigned 64-bit
    /// values above `Int64.max` come back as their bit pattern.
    ///
    /// `scan` must hold at least the element (it is checked); it need not be aligned.
    @inlinable
    public func rawValue(of element: Int, repetition: Int = 0, in scan: UnsafeRawBufferPointer) -> Int64 {
        let d = decoders[element]
        let at = d.offset + repetition * d.storageBytes
        precondition(repetition >= 0 && repetition < d.repeatCount, "no such repetition of this element")
        precondition(at + d.storageBytes <= scan.count, "scan too short for this element")
        var raw: UInt64
        switch d.storageBytes {
        case 1:
            raw = UInt64(scan.load(fromByteOffset: at, as: UInt8.self))
        case 2:
            let v = scan.loadUnaligned(fromByteOffset: at, as: UInt16.self)
            raw = UInt64(d.bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
        case 4:
            let v = scan.loadUnaligned(fromByteOffset: at, as: UInt32.self)
            raw = UInt64(d.bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v))
        default:
            let v = scan.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            raw = d.bigEndian ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
        }
        raw = (raw >> d.shift) & d.mask
        if d.signExtension == 0 { return Int64(bitPattern: raw) }
        return Int64(bitPattern: raw << d.signExtension) >> Int64(d.signExtension)
    }
}
