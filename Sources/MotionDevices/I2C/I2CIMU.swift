// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C
import MotionCore

/// An LSM9DS1 found on an I²C bus through i2c-dev: a Sense HAT's, or a
/// breakout board's.
public struct I2CIMU: Sendable, Equatable, CustomStringConvertible {
    public let adapter: I2CAdapter
    /// The accelerometer and gyroscope's address (0x6a or 0x6b).
    public let address: UInt8
    /// The magnetometer's, when it answered (0x1c or 0x1e).
    public let magnetometerAddress: UInt8?
    /// Whether the chip is a Sense HAT's (turned as the HAT mounts it) or a
    /// breakout's (its own printed axes).
    public let isSenseHat: Bool

    /// `isSenseHat` nil: by the address alone, as on a machine without a device tree.
    public init(adapter: I2CAdapter, address: UInt8, magnetometerAddress: UInt8?, isSenseHat: Bool? = nil) {
        self.adapter = adapter
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.isSenseHat = isSenseHat ?? (address == LSM9DS1.accelGyroAddresses[0])
    }

    /// Whether an LSM9DS1 at `address` on `adapter` is a Sense HAT's.
    ///
    /// Where there is a device tree (a Pi), the HAT says so itself: its ID
    /// EEPROM's product, which the firmware shows as `hat/product`, is
    /// "Sense HAT", and the chip answers at the HAT's address on the
    /// header's bus. A breakout with its SDO pin low answers at that
    /// address too, and keeps its own axes. Without a device tree (a PC, a
    /// virtual machine, where no HAT can be fitted but a test rig may model
    /// one) nothing tells them apart but the address.
    public static func isSenseHat(address: UInt8, adapter: I2CAdapter, tree: DeviceTree?, sysfs: String = "/sys") -> Bool {
        guard address == LSM9DS1.accelGyroAddresses[0] else { return false }
        guard let tree else { return true }
        return tree.hatProduct == "Sense HAT" && I2CBusChoice.skipReason(adapter, tree: tree, sysfs: sysfs) == nil
    }

    public var name: String { "lsm9ds1" }

    /// "Sense HAT", or "LSM9DS1 breakout".
    public var board: String { isSenseHat ? "Sense HAT" : "LSM9DS1 breakout" }

    /// "0x6a" or "0x6a + 0x1c".
    public var addresses: String {
        ([address] + (magnetometerAddress.map { [$0] } ?? [])).map(I2CDevice.hex).joined(separator: " + ")
    }

    /// "lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a", as the player is told.
    public var placeDescription: String { "\(name) (\(board)) on \(adapter.node) at \(I2CDevice.hex(address))" }

    public var description: String { placeDescription }

    /// Who the chip is for its stored calibration: bus number and address
    /// stay the same across boots on a Pi.
    public var identity: String { "i2c \(name) at i2c-\(adapter.number) \(I2CDevice.hex(address))" }

    /// From the chip's axes to the board's: the Sense HAT's mounting, or
    /// the breakout's printed axes.
    public var mount: MountMatrix { isSenseHat ? LSM9DS1.senseHatMount : .identity }

    /// The mount matrix in force for this user (`user`: their calibration
    /// file's correction), else `mount` and where it comes from.
    public func chosenMount(user: ChipCorrection?) -> ChosenMountMatrix {
        MountMatrixLookup.i2c(builtIn: mount, origin: isSenseHat ? .board(board) : .identity, user: user)
    }
}
