// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import LibC

/// One chip on an I²C bus, reached through the kernel's i2c-dev node
/// (`/dev/i2c-N`) with SMBus transfers: its own descriptor, with the chip's
/// address selected once, so each register access is a single system call.
///
/// Sendable: the address is fixed when it is opened and each transfer is
/// one system call, which the kernel serialises on the bus. Closing it
/// (deinit) leaves the chip as it is.
public final class I2CDevice: @unchecked Sendable {
    /// "/dev/i2c-1".
    public let bus: String
    /// The 7-bit address.
    public let address: UInt8
    private let file: OwnedDescriptor

    /// "/dev/i2c-1 address 0x6a": how errors name the chip.
    public var place: String { Self.place(bus: bus, address: address) }

    public static func place(bus: String, address: UInt8) -> String { "\(bus) address \(hex(address))" }

    /// "0x6a".
    public static func hex(_ value: UInt8) -> String { "0x" + hexDigits(value, width: 2) }

    /// `value` in lower-case hex, zero-padded to `width` digits.
    static func hexDigits(_ value: UInt8, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Opens `bus` and selects `address` (`I2C_SLAVE`), which fails with
    /// EBUSY when a kernel driver has bound the chip: a user program must
    /// then leave it alone. Also fails, naming the bus, when the adapter
    /// cannot do the SMBus byte and I²C block transfers this type uses.
    public init(bus: String, address: UInt8) throws(I2CError) {
        self.bus = bus
        self.address = address
        let place = Self.place(bus: bus, address: address)
        // Closed by itself if a check below throws.
        let fd: OwnedDescriptor
        do {
            fd = try OwnedDescriptor.open(FilePath(bus), .readWrite)
        } catch {
            throw I2CError(errno: error.rawValue, operation: "open", path: bus,
                           detail: error == .noSuchFileOrDirectory ? "no such I²C bus node (is the bus enabled and the i2c-dev module loaded?)" : nil)
        }
        switch fd.withDescriptor({ $0.i2cFunctionality() }) {
        case .success(let functions) where !functions.isSuperset(of: [.byteData, .blockRead]):
            throw I2CError(errno: EOPNOTSUPP, operation: "use SMBus byte and block transfers", path: bus,
                           detail: "this adapter offers neither SMBus byte-data nor I²C block reads")
        case .success: break
        case .failure(let errno):
            throw I2CError(errno: errno.rawValue, operation: "ask what the adapter can do (I2C_FUNCS)", path: bus,
                           detail: errno.rawValue == ENOTTY ? "it is not an i2c-dev node (expected /dev/i2c-N)" : nil)
        }
        if case .failure(let errno) = fd.withDescriptor({ $0.selectI2CAddress(address) }) {
            throw I2CError(errno: errno.rawValue, operation: "select the chip (I2C_SLAVE)", path: place,
                           detail: errno == .resourceBusy ? "a kernel driver has bound this address" : nil)
        }
        file = fd
    }

    /// One register. The corresponding call is `i2c_smbus_read_byte_data`.
    public func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        switch file.withDescriptor({ $0.smbusReadByte(command: register) }) {
        case .success(let value): return value
        case .failure(let errno): throw transferError(errno, "read register \(Self.hex(register))")
        }
    }

    /// Writes one register. The corresponding call is `i2c_smbus_write_byte_data`.
    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        if case .failure(let errno) = file.withDescriptor({ $0.smbusWriteByte(command: register, value: value) }) {
            throw transferError(errno, "write register \(Self.hex(register))")
        }
    }

    /// `buffer.count` (1 to 32) consecutive registers from `register` in
    /// one transfer; the chip must step its register pointer itself. The
    /// corresponding call is `i2c_smbus_read_i2c_block_data`. Allocates nothing.
    public func readRegisters(from register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        switch file.withDescriptor({ $0.smbusReadBlock(command: register, into: buffer) }) {
        case .success(let count) where count == buffer.count: return
        case .success(let count):
            throw I2CError(errno: EIO, operation: "read \(buffer.count) registers from \(Self.hex(register))", path: place,
                           detail: "the adapter returned \(count) bytes")
        case .failure(let errno): throw transferError(errno, "read \(buffer.count) registers from \(Self.hex(register))")
        }
    }

    private func transferError(_ errno: Errno, _ operation: String) -> I2CError {
        let detail: String? = switch errno.rawValue {
        // A chip that does not acknowledge its address: bcm2835 says
        // EREMOTEIO, other adapters ENXIO or EIO.
        case EREMOTEIO, ENXIO: "no chip answers at this address (unplugged, or not powered)"
        case ETIMEDOUT: "the bus timed out (a chip holding SDA low, or no pull-ups)"
        default: nil
        }
        return I2CError(errno: errno.rawValue, operation: operation, path: place, detail: detail)
    }

    /// Whether `error` says the chip or its bus has gone (not acknowledging, adapter removed).
    public static func isGone(_ error: I2CError) -> Bool {
        [ENXIO, EREMOTEIO, ENODEV].contains(error.errno)
    }
}
