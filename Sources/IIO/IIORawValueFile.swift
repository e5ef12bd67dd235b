// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import LibC

/// A channel's `raw` attribute kept open for polling: each `read()` is one
/// `pread` at offset 0, which makes sysfs ask the driver for a fresh value,
/// and the decimal text is parsed in place. Nothing is allocated per read,
/// unlike libiio's attribute reads (each opens the file through stdio).
///
/// For a local context only: the file is this machine's sysfs.
public final class IIORawValueFile: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is only read with pread, which
    // keeps no file position; nothing else changes after init.

    /// "/sys/bus/iio/devices/iio:device0/in_accel_x_raw".
    public let path: String
    private let file: OwnedDescriptor

    /// Opens the `raw` attribute of `channel`. The corresponding C function is `open`.
    public convenience init(channel: IIOChannel) throws(IIOError) {
        try self.init(path: channel.attributePath("raw"))
    }

    /// Opens an attribute file that holds one integer, by its path.
    public init(path: String) throws(IIOError) {
        self.path = path
        do {
            file = try OwnedDescriptor.open(FilePath(path), .readOnly)
        } catch {
            throw IIOError(errno: error.rawValue, operation: "open", path: path)
        }
    }

    /// The value the driver reads from the chip now. Fails with the errno
    /// the driver gave (ENODEV once the device is gone), or EINVAL naming
    /// the file when the text is not an integer.
    public func read() throws(IIOError) -> Int64 {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let result = withUnsafeMutableBytes(of: &bytes) { buffer -> Result<Int64, IIOError> in
            let count: Int
            switch file.withDescriptor({ fd in valueOrErrno { pread(fd.rawValue, buffer.baseAddress, buffer.count, 0) } }) {
            case .success(let n): count = n
            case .failure(let errno): return .failure(IIOError(errno: errno.rawValue, operation: "read", path: path))
            }
            guard let value = Self.parse(UnsafeRawBufferPointer(rebasing: buffer[0 ..< count])) else {
                return .failure(IIOError(errno: EINVAL, operation: "read", path: path,
                                         detail: "\(count == 0 ? "it is empty" : "its text is not an integer")"))
            }
            return .success(value)
        }
        return try result.get()
    }

    /// A decimal integer with an optional sign, ending at a newline or the end.
    static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        var i = 0, negative = false, value: Int64 = 0, digits = 0
        if i < text.count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(text[i] - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
            digits += 1
            i += 1
        }
        guard digits > 0, i == text.count || text[i] == UInt8(ascii: "\n") else { return nil }
        return negative ? -value : value
    }
}
