// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C
import MotionCore
import SystemCalls
import LibC

/// What looking for an LSM9DS1 on one I²C bus found: the chip, the
/// addresses that answered, the ones a kernel driver holds, or why the bus
/// could not be looked at. The answer `devices`, `doctor` and `--source
/// auto` share.
///
/// Looking means opening the bus node and reading WHO_AM_I at the
/// LSM9DS1's four addresses only: a read of one register, which leaves any
/// chip as it was. An address a kernel driver has bound is not touched.
public struct I2CProbe: Sendable {
    public let adapter: I2CAdapter
    /// Whether this user may open the bus node, and if not what to do.
    public let access: DeviceAccess
    /// The LSM9DS1s found (accelerometer and gyroscope address first).
    public let imus: [I2CIMU]
    /// Each address that answered, and as what: "0x6a: LSM9DS1 accelerometer and gyroscope".
    public let answered: [String]
    /// Addresses a kernel driver has bound, with the driver's name: left alone.
    public let claimed: [(address: UInt8, driver: String)]
    /// Why the bus could not be read, other than permission.
    public let failure: String?

    /// Looks at `adapter`. With `sysfs` other than "/sys" (a test's tree),
    /// claims are read from there too. `tree` decides whether an LSM9DS1
    /// there is a Sense HAT's (`I2CIMU.senseHat(address:onHeader:tree:)`).
    public static func probe(_ adapter: I2CAdapter, sysfs: String = "/sys", tree: DeviceTree? = nil) -> I2CProbe {
        let access = DeviceAccess.check(adapter.node, need: .readWrite, grantedBy: .nobody)
        var claimed: [(UInt8, String)] = []
        var identities: [UInt8: UInt8] = [:]
        var failure: String?
        if access.allowed {
            for address in LSM9DS1.accelGyroAddresses + LSM9DS1.magnetometerAddresses {
                if let driver = adapter.claim(of: address, sysfs: sysfs).driver {
                    claimed.append((address, driver))
                    continue
                }
                do {
                    let chip = try I2CDevice(bus: adapter.node, address: address)
                    identities[address] = try TransientFaults.retrying { () throws(I2CError) in try chip.readRegister(LSM9DS1.Register.whoAmI) }
                } catch {
                    // Nothing at that address is the common case; a bus that
                    // fails as a whole (the adapter refuses SMBus) is news.
                    if !I2CDevice.isGone(error) && error.errno != EIO && error.errno != ETIMEDOUT && error.errno != EBUSY {
                        failure = failure ?? error.description
                    }
                }
            }
        }
        let magnetometer = LSM9DS1.magnetometerAddresses.filter { identities[$0] == LSM9DS1.magnetometerIdentity }
        var imus: [I2CIMU] = []
        var answered: [String] = []
        for (i, address) in LSM9DS1.accelGyroAddresses.enumerated() {
            guard let identity = identities[address] else { continue }
            if identity == LSM9DS1.accelGyroIdentity {
                answered.append("\(I2CDevice.hex(address)): LSM9DS1 accelerometer and gyroscope")
                // Both of a chip's addresses follow one pin on the breakout
                // and are fixed on the HAT: pair them by position.
                let partner = LSM9DS1.magnetometerAddresses[i]
                imus.append(I2CIMU(adapter: adapter, address: address,
                                   magnetometerAddress: magnetometer.contains(partner) ? partner : nil,
                                   isSenseHat: I2CIMU.isSenseHat(address: address, adapter: adapter, tree: tree, sysfs: sysfs)))
            } else {
                answered.append("\(I2CDevice.hex(address)): not an LSM9DS1 (WHO_AM_I \(I2CDevice.hex(identity)), expected \(I2CDevice.hex(LSM9DS1.accelGyroIdentity)))")
            }
        }
        for address in magnetometer { answered.append("\(I2CDevice.hex(address)): LSM9DS1 magnetometer") }
        return I2CProbe(adapter: adapter, access: access, imus: imus, answered: answered, claimed: claimed, failure: failure)
    }

    /// Every bus's probe. With `forAuto`, only the buses `I2CBusChoice`
    /// reads; the others come back in `skipped`, with the reason.
    public static func probeAll(sysfs: String = "/sys", forAuto: Bool = false) -> (probes: [I2CProbe], skipped: [SkippedBus]) {
        let tree = DeviceTree.read(sysfs: sysfs)
        var probes: [I2CProbe] = [], skipped: [SkippedBus] = []
        for adapter in I2CAdapter.all(sysfs: sysfs) {
            if forAuto, let reason = I2CBusChoice.skipReason(adapter, tree: tree, sysfs: sysfs) {
                skipped.append(SkippedBus(adapter: adapter, reason: reason))
            } else {
                probes.append(probe(adapter, sysfs: sysfs, tree: tree))
            }
        }
        return (probes, skipped)
    }

    /// A bus `--source auto` does not read, and why.
    public struct SkippedBus: Sendable, Equatable {
        public let adapter: I2CAdapter
        public let reason: String
    }

    /// Why a bus without a found chip offers none, for `devices` and `doctor`.
    public var summary: String {
        if !access.allowed { return access.explanation }
        if let failure { return failure }
        var parts: [String] = []
        if !answered.isEmpty { parts.append("answered: " + answered.joined(separator: "; ")) }
        if !claimed.isEmpty {
            parts.append("held by kernel drivers: " + claimed.map { "\(I2CDevice.hex($0.address)) (\($0.driver))" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "no LSM9DS1 at 0x6a, 0x6b, 0x1c or 0x1e" : parts.joined(separator: "; ")
    }
}

/// Whether this machine is a Raspberry Pi (its device tree's model), for
/// the advice to enable the header's I²C bus.
public enum RaspberryPi {
    /// "Raspberry Pi 4 Model B Rev 1.4", nil elsewhere: the device tree's
    /// model (`/proc/device-tree` is a link to where sysfs shows the tree).
    public static func model(sysfs: String = "/sys") -> String? {
        DeviceTree.read(sysfs: sysfs).flatMap { $0.isRaspberryPi ? $0.model : nil }
    }

    /// What turns on the 40-pin header's I²C bus (/dev/i2c-1) on Pi OS.
    public static let enableI2C = "enable I²C: sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt and i2c-dev in /etc/modules, and reboot"
}
