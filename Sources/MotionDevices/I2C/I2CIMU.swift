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

    public init(adapter: I2CAdapter, address: UInt8, magnetometerAddress: UInt8?) {
        self.adapter = adapter
        self.address = address
        self.magnetometerAddress = magnetometerAddress
    }

    public var name: String { "lsm9ds1" }

    /// "Sense HAT" at the HAT's addresses, else "LSM9DS1 breakout".
    public var board: String {
        address == LSM9DS1.accelGyroAddresses[0] ? "Sense HAT" : "LSM9DS1 breakout"
    }

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
    public var mount: MountMatrix { LSM9DS1.mount(address: address) }
}
