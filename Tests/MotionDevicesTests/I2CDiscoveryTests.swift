// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import I2C
import MotionDevices

@Suite("I²C buses and the LSM9DS1's addresses from sysfs")
struct I2CDiscoveryTests {
    /// A fake sysfs: i2c-dev nodes (number, adapter name) and i2c clients
    /// ("1-006a", name, bound driver or nil).
    func fakeSysfs(buses: [(Int, String)], clients: [(String, String, String?)]) throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-i2c-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fm = FileManager.default
        for (n, name) in buses {
            try fm.createDirectory(atPath: "\(root)/class/i2c-dev/i2c-\(n)", withIntermediateDirectories: true)
            try "\(name)\n".write(toFile: "\(root)/class/i2c-dev/i2c-\(n)/name", atomically: true, encoding: .utf8)
        }
        for (client, name, driver) in clients {
            let dir = "\(root)/bus/i2c/devices/\(client)"
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try "\(name)\n".write(toFile: dir + "/name", atomically: true, encoding: .utf8)
            if let driver {
                try fm.createDirectory(atPath: "\(root)/bus/i2c/drivers/\(driver)", withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: dir + "/driver", withDestinationPath: "../../drivers/\(driver)")
            }
        }
        return root
    }

    @Test("buses are the i2c-dev class's, in number order, with their adapter names")
    func buses() throws {
        let root = try fakeSysfs(buses: [(20, "fef04500.i2c"), (1, "bcm2835 (i2c@7e804000)")], clients: [])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(I2CAdapter.all(sysfs: root) == [I2CAdapter(number: 1, name: "bcm2835 (i2c@7e804000)"),
                                                I2CAdapter(number: 20, name: "fef04500.i2c")])
        #expect(I2CAdapter.all(sysfs: root + "/nothing").isEmpty)
        #expect(I2CAdapter(number: 1, name: "x").node == "/dev/i2c-1")
    }

    @Test("a chip a kernel driver has bound is claimed by it; one the overlay declares but no driver binds (stock Pi OS) is not")
    func claims() throws {
        let root = try fakeSysfs(buses: [(1, "bcm2835 (i2c@7e804000)")],
                                 clients: [("1-006a", "lsm9ds1-accel", nil), ("1-001c", "lsm9ds1-magn", "st_magn"),
                                           ("1-005f", "hts221", "hts221")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bus = I2CAdapter(number: 1, name: "bcm2835")
        #expect(bus.claim(of: 0x6a, sysfs: root).driver == nil)
        #expect(bus.claim(of: 0x6a, sysfs: root).device == "lsm9ds1-accel")
        #expect(bus.claim(of: 0x1c, sysfs: root).driver == "st_magn")
        #expect(bus.claim(of: 0x6b, sysfs: root).driver == nil && bus.claim(of: 0x6b, sysfs: root).device == nil)
    }

    @Test("--source i2c takes a bus as a node, a number or i2c-N")
    func requests() {
        #expect(SensorRequest(argument: "i2c") == .i2c(nil))
        #expect(SensorRequest(argument: "i2c:1") == .i2c("/dev/i2c-1"))
        #expect(SensorRequest(argument: "i2c:i2c-22") == .i2c("/dev/i2c-22"))
        #expect(SensorRequest(argument: "i2c:/dev/i2c-3") == .i2c("/dev/i2c-3"))
        #expect(SensorRequest(argument: "i2c:") == nil)
        #expect(I2CAdapter.number(ofNode: "/dev/i2c-3") == 3)
        #expect(I2CAdapter.number(ofNode: "/dev/ttyS0") == nil)
    }

    @Test("--source auto leaves a PC's chipset SMBus and graphics buses alone")
    func autoSkipsHostBuses() {
        let skipped = ["SMBus I801 adapter at efa0", "SMBus PIIX4 adapter port 0 at 0b00", "i915 gmbus dpb", "AUX B/DDI B/PHY B",
                       "NVIDIA i2c adapter 1 at 1:00.0"]
        let probed = ["bcm2835 (i2c@7e804000)", "Synopsys DesignWare I2C adapter", "SMBus stub driver", "fef04500.i2c"]
        for name in skipped { #expect(I2CProbe.isHostOrDisplayBus(I2CAdapter(number: 0, name: name)), "\(name)") }
        for name in probed { #expect(!I2CProbe.isHostOrDisplayBus(I2CAdapter(number: 0, name: name)), "\(name)") }
    }

    @Test("an LSM9DS1 at the HAT's address is a Sense HAT's, named by bus and address for its calibration")
    func naming() {
        let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: 0x1c)
        #expect(imu.placeDescription == "lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a")
        #expect(imu.addresses == "0x6a + 0x1c")
        #expect(imu.identity == "i2c lsm9ds1 at i2c-1 0x6a")
        let breakout = I2CIMU(adapter: I2CAdapter(number: 3, name: "x"), address: 0x6b, magnetometerAddress: nil)
        #expect(breakout.board == "LSM9DS1 breakout" && breakout.addresses == "0x6b")
    }
}
