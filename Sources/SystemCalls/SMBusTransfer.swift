// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CSystemCalls
import SystemPackage
import LibC

/// The transfers of the kernel's SMBus interface on an i2c-dev node
/// (`/dev/i2c-N`) that a register-mapped sensor needs. SMBus, not plain
/// `I2C_RDWR`: every adapter the kernel has offers it (an I²C controller
/// emulates it, and the kernel's `i2c-stub` test bus speaks nothing else).
///
/// Each transfer is one `ioctl(I2C_SMBUS)` whose buffer lives on the
/// caller's stack: nothing is allocated.
extension FileDescriptor {
    /// Talks to the chip at `address` from now on (`I2C_SLAVE`). EBUSY:
    /// a kernel driver has bound that address. The corresponding C call is
    /// `ioctl(fd, I2C_SLAVE, address)`.
    public func selectI2CAddress(_ address: UInt8) -> Result<Void, Errno> {
        // The kernel reads the address as an unsigned long: pass it in a
        // pointer-sized argument, never as an int promoted through varargs.
        guard let argument = UnsafeMutableRawPointer(bitPattern: UInt(address)) else { return .failure(.invalidArgument) }
        return nothingOrErrno { ioctl(rawValue, UInt(I2C_SLAVE), argument) }
    }

    /// What the adapter can do (`I2C_FUNCS`).
    public func i2cFunctionality() -> Result<I2CFunctions, Errno> {
        var bits: CUnsignedLong = 0
        return nothingOrErrno { ioctl(rawValue, UInt(I2C_FUNCS), &bits) }.map { I2CFunctions(rawValue: UInt(bits)) }
    }

    /// SMBus "read byte data": the register `command` of the selected chip.
    public func smbusReadByte(command: UInt8) -> Result<UInt8, Errno> {
        var data = i2c_smbus_data()
        return smbus(read: true, command: command, size: I2C_SMBUS_BYTE_DATA, &data).map { data.byte }
    }

    /// SMBus "write byte data": `value` into the register `command`.
    public func smbusWriteByte(command: UInt8, value: UInt8) -> Result<Void, Errno> {
        var data = i2c_smbus_data()
        data.byte = value
        return smbus(read: false, command: command, size: I2C_SMBUS_BYTE_DATA, &data)
    }

    /// "I²C block read": `buffer.count` (at most 32) bytes from consecutive
    /// registers starting at `command`, in one transfer (the chip must
    /// advance its register pointer by itself). Fills `buffer` and returns
    /// how many bytes came.
    public func smbusReadBlock(command: UInt8, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        precondition(buffer.count >= 1 && buffer.count <= Int(I2C_SMBUS_BLOCK_MAX), "an SMBus block is 1 to 32 bytes")
        var data = i2c_smbus_data()
        // The length goes in block[0]; the data comes back from block[1].
        withUnsafeMutableBytes(of: &data) { $0[0] = UInt8(buffer.count) }
        return smbus(read: true, command: command, size: I2C_SMBUS_I2C_BLOCK_DATA, &data).map {
            withUnsafeBytes(of: &data) { raw in
                let count = min(Int(raw[0]), buffer.count)
                buffer.baseAddress!.copyMemory(from: raw.baseAddress! + 1, byteCount: count)
                return count
            }
        }
    }

    /// The one `ioctl(I2C_SMBUS)` call of this module.
    private func smbus(read: Bool, command: UInt8, size: Int32, _ data: inout i2c_smbus_data) -> Result<Void, Errno> {
        withUnsafeMutablePointer(to: &data) { pointer in
            var request = i2c_smbus_ioctl_data(read_write: UInt8(read ? I2C_SMBUS_READ : I2C_SMBUS_WRITE),
                                               command: command, size: UInt32(size), data: pointer)
            return nothingOrErrno { ioctl(rawValue, UInt(I2C_SMBUS), &request) }
        }
    }
}

/// The `I2C_FUNC_*` bits of an adapter that a register-mapped chip's reader needs.
public struct I2CFunctions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// SMBus read and write byte data (`I2C_FUNC_SMBUS_BYTE_DATA`).
    public static let byteData = I2CFunctions(rawValue: UInt(I2C_FUNC_SMBUS_READ_BYTE_DATA | I2C_FUNC_SMBUS_WRITE_BYTE_DATA))
    /// I²C block reads of consecutive registers (`I2C_FUNC_SMBUS_READ_I2C_BLOCK`).
    public static let blockRead = I2CFunctions(rawValue: UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK))
}
