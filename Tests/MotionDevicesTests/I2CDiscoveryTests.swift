// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import I2C
import MotionDevices
import MotionCore

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

    @Test("without a device tree (a PC), --source auto leaves its chipset SMBus and graphics buses alone")
    func autoSkipsHostBuses() {
        let skipped = ["SMBus I801 adapter at efa0", "SMBus PIIX4 adapter port 0 at 0b00", "i915 gmbus dpb", "AUX B/DDI B/PHY B",
                       "NVIDIA i2c adapter 1 at 1:00.0"]
        let probed = ["bcm2835 (i2c@7e804000)", "Synopsys DesignWare I2C adapter", "SMBus stub driver"]
        for name in skipped { #expect(I2CBusChoice.isHostOrDisplayBus(I2CAdapter(number: 0, name: name)), "\(name)") }
        for name in probed { #expect(!I2CBusChoice.isHostOrDisplayBus(I2CAdapter(number: 0, name: name)), "\(name)") }
    }

    /// A board's I²C adapters as a Pi's kernel lays them out: bus number,
    /// adapter name, controller's platform device, device-tree node.
    struct PiLayout {
        var model: String
        var adapters: [(number: Int, name: String, parent: String, node: String)]
        var symbols: [String: String]
        var compatible: [String: String]
        /// The bus numbers `--source auto` must read.
        var header: Set<Int>
    }

    /// The layout in a fake sysfs: i2c-dev nodes, adapters with their
    /// `of_node` links, and the device tree (with a HAT EEPROM's product if given).
    func fakeSysfs(_ layout: PiLayout, hat: String? = nil) throws -> String {
        let root = try fakeSysfs(buses: layout.adapters.map { ($0.number, $0.name) }, clients: [])
        let fm = FileManager.default
        let base = root + "/firmware/devicetree/base"
        try fm.createDirectory(atPath: base + "/__symbols__", withIntermediateDirectories: true)
        try "\(layout.model)\0".write(toFile: base + "/model", atomically: true, encoding: .utf8)
        if let hat {
            try fm.createDirectory(atPath: base + "/hat", withIntermediateDirectories: true)
            try "\(hat)\0".write(toFile: base + "/hat/product", atomically: true, encoding: .utf8)
        }
        for (label, node) in layout.symbols { try "\(node)\0".write(toFile: base + "/__symbols__/" + label, atomically: true, encoding: .utf8) }
        for adapter in layout.adapters {
            try fm.createDirectory(atPath: base + adapter.node, withIntermediateDirectories: true)
            try "\(layout.compatible[adapter.node] ?? "")\0".write(toFile: base + adapter.node + "/compatible", atomically: true, encoding: .utf8)
            let device = "\(root)\(adapter.parent)/i2c-\(adapter.number)"
            try fm.createDirectory(atPath: device, withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: device + "/of_node", withDestinationPath: base + adapter.node)
            try fm.createDirectory(atPath: root + "/bus/i2c/devices", withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: "\(root)/bus/i2c/devices/i2c-\(adapter.number)", withDestinationPath: device)
        }
        return root
    }

    static let layouts: [PiLayout] = [pi3, pi4, pi5]

    @Test("on a Pi's own layout (3, 4 and 5), auto reads only the GPIO header's bus; the others are named with their node and why", arguments: layouts)
    func piBuses(_ layout: PiLayout) throws {
        let sysfs = try fakeSysfs(layout)
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        let tree = try #require(DeviceTree.read(sysfs: sysfs))
        #expect(tree.isRaspberryPi)
        for adapter in I2CAdapter.all(sysfs: sysfs) {
            let reason = I2CBusChoice.skipReason(adapter, tree: tree, sysfs: sysfs)
            if layout.header.contains(adapter.number) {
                #expect(reason == nil, "\(layout.model): \(adapter) skipped: \(reason ?? "")")
            } else {
                #expect(reason?.hasPrefix("not the GPIO header's bus (/") == true && reason?.hasSuffix("--source i2c:\(adapter.number)") == true,
                        "\(layout.model): \(adapter): \(reason ?? "read")")
            }
        }
        #expect(I2CAdapter.all(sysfs: sysfs).count == layout.adapters.count)
    }

    @Test("the Sense HAT is told by its EEPROM: at 0x6a on the header's bus with product \"Sense HAT\" it is turned as the HAT mounts it; without the EEPROM, or on another bus, a breakout keeps its own axes")
    func senseHatByEEPROM() throws {
        let layout = Self.pi4
        let header = I2CAdapter(number: 1, name: layout.adapters[0].name)
        let other = I2CAdapter(number: 0, name: "i2c-22-mux (chan_id 0)")
        let withHat = try fakeSysfs(layout, hat: "Sense HAT")
        let withoutHat = try fakeSysfs(layout)
        let otherHat = try fakeSysfs(layout, hat: "Raspberry Pi Build HAT")
        defer { for root in [withHat, withoutHat, otherHat] { try? FileManager.default.removeItem(atPath: root) } }
        func isHat(_ sysfs: String, _ adapter: I2CAdapter, _ address: UInt8 = 0x6a) -> Bool {
            I2CIMU.isSenseHat(address: address, adapter: adapter, tree: DeviceTree.read(sysfs: sysfs), sysfs: sysfs)
        }
        #expect(isHat(withHat, header))
        #expect(!isHat(withHat, header, 0x6b), "the HAT's chip answers at 0x6a")
        #expect(!isHat(withHat, other), "not the header's bus")
        #expect(!isHat(withoutHat, header), "a breakout with SDO low also answers at 0x6a")
        #expect(!isHat(otherHat, header))
        #expect(DeviceTree.read(sysfs: withHat)?.hatProduct == "Sense HAT")
        // No device tree at all (a PC, a virtual machine): only the address can tell.
        let pc = try fakeSysfs(buses: [(1, "SMBus stub driver")], clients: [])
        defer { try? FileManager.default.removeItem(atPath: pc) }
        #expect(DeviceTree.read(sysfs: pc) == nil)
        #expect(isHat(pc, I2CAdapter(number: 1, name: "SMBus stub driver")))
        let breakout = I2CIMU(adapter: header, address: 0x6a, magnetometerAddress: 0x1c, isSenseHat: false)
        #expect(breakout.placeDescription == "lsm9ds1 (LSM9DS1 breakout) on /dev/i2c-1 at 0x6a" && breakout.mount == .identity)
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

extension I2CDiscoveryTests {
    // The layouts below follow the Raspberry Pi kernel's device trees (arch/arm/boot/dts/broadcom:
    // bcm270x.dtsi, bcm2709-rpi.dtsi, bcm2711.dtsi, bcm2711-rpi-ds.dtsi, bcm2712.dtsi, bcm2712-rpi.dtsi,
    // rp1.dtsi), the bus numbers their aliases fix (a mux parent takes the next free one), and the
    // names the drivers give their adapters: i2c-bcm2835 "bcm2835 (<node name>)", i2c-brcmstb the
    // platform device's name, i2c-designware "Synopsys DesignWare I2C adapter", i2c-mux
    // "i2c-<parent>-mux (chan_id <n>)".
    static let pi3 = PiLayout(
        model: "Raspberry Pi 3 Model B Rev 1.2",
        adapters: [(1, "bcm2835 (i2c@7e804000)", "/devices/platform/soc/3f804000.i2c", "/soc/i2c@7e804000"),
                   (11, "bcm2835 (i2c@7e205000)", "/devices/platform/soc/3f205000.i2c", "/soc/i2c@7e205000"),
                   (0, "i2c-11-mux (chan_id 0)", "/devices/platform/soc/3f205000.i2c/i2c-11", "/soc/i2c0mux/i2c@0"),
                   (10, "i2c-11-mux (chan_id 1)", "/devices/platform/soc/3f205000.i2c/i2c-11", "/soc/i2c0mux/i2c@1"),
                   (2, "bcm2835 (i2c@7e805000)", "/devices/platform/soc/3f805000.i2c", "/soc/i2c@7e805000")],
        symbols: ["i2c1": "/soc/i2c@7e804000", "i2c_arm": "/soc/i2c@7e804000", "i2c0if": "/soc/i2c@7e205000",
                  "i2c0": "/soc/i2c0mux/i2c@0", "i2c_vc": "/soc/i2c0mux/i2c@0", "i2c_csi_dsi0": "/soc/i2c0mux/i2c@0",
                  "i2c_csi_dsi": "/soc/i2c0mux/i2c@1", "i2c2": "/soc/i2c@7e805000"],
        compatible: ["/soc/i2c@7e804000": "brcm,bcm2835-i2c", "/soc/i2c@7e205000": "brcm,bcm2835-i2c",
                     "/soc/i2c0mux/i2c@0": "", "/soc/i2c0mux/i2c@1": "", "/soc/i2c@7e805000": "brcm,bcm2835-i2c"],
        header: [1])
    static let pi4 = PiLayout(
        model: "Raspberry Pi 4 Model B Rev 1.4",
        adapters: [(1, "bcm2835 (i2c@7e804000)", "/devices/platform/soc/fe804000.i2c", "/soc/i2c@7e804000"),
                   (22, "bcm2835 (i2c@7e205000)", "/devices/platform/soc/fe205000.i2c", "/soc/i2c@7e205000"),
                   (0, "i2c-22-mux (chan_id 0)", "/devices/platform/soc/fe205000.i2c/i2c-22", "/soc/i2c0mux/i2c@0"),
                   (10, "i2c-22-mux (chan_id 1)", "/devices/platform/soc/fe205000.i2c/i2c-22", "/soc/i2c0mux/i2c@1"),
                   (20, "fef04500.i2c", "/devices/platform/soc/fef04500.i2c", "/soc/i2c@7ef04500"),
                   (21, "fef09500.i2c", "/devices/platform/soc/fef09500.i2c", "/soc/i2c@7ef09500"),
                   // dtoverlay=i2c3: another controller on header pins, read only when named.
                   (3, "bcm2835 (i2c@7e205600)", "/devices/platform/soc/fe205600.i2c", "/soc/i2c@7e205600"),
                   // dtoverlay=i2c-gpio: a bit-banged bus the player laid on header pins.
                   (4, "i2c-gpio-4", "/devices/platform/i2c@0", "/i2c@0")],
        symbols: ["i2c1": "/soc/i2c@7e804000", "i2c_arm": "/soc/i2c@7e804000", "i2c0if": "/soc/i2c@7e205000",
                  "i2c0": "/soc/i2c0mux/i2c@0", "i2c_vc": "/soc/i2c0mux/i2c@0", "i2c_csi_dsi0": "/soc/i2c0mux/i2c@0",
                  "i2c10": "/soc/i2c0mux/i2c@1", "i2c_csi_dsi": "/soc/i2c0mux/i2c@1",
                  "ddc0": "/soc/i2c@7ef04500", "ddc1": "/soc/i2c@7ef09500", "i2c3": "/soc/i2c@7e205600"],
        compatible: ["/soc/i2c@7e804000": "brcm,bcm2711-i2c", "/soc/i2c@7e205000": "brcm,bcm2711-i2c",
                     "/soc/i2c0mux/i2c@0": "", "/soc/i2c0mux/i2c@1": "",
                     "/soc/i2c@7ef04500": "brcm,bcm2711-hdmi-i2c", "/soc/i2c@7ef09500": "brcm,bcm2711-hdmi-i2c",
                     "/soc/i2c@7e205600": "brcm,bcm2711-i2c", "/i2c@0": "i2c-gpio"],
        header: [1, 4])
    static let pi5 = PiLayout(
        model: "Raspberry Pi 5 Model B Rev 1.0",
        adapters: [(1, "Synopsys DesignWare I2C adapter", "/devices/platform/axi/1000120000.pcie/1f00074000.i2c",
                    "/axi/pcie@1000120000/rp1/i2c@74000"),
                   (10, "Synopsys DesignWare I2C adapter", "/devices/platform/axi/1000120000.pcie/1f00088000.i2c",
                    "/axi/pcie@1000120000/rp1/i2c@88000"),
                   (11, "Synopsys DesignWare I2C adapter", "/devices/platform/axi/1000120000.pcie/1f00080000.i2c",
                    "/axi/pcie@1000120000/rp1/i2c@80000"),
                   (0, "Synopsys DesignWare I2C adapter", "/devices/platform/axi/1000120000.pcie/1f00070000.i2c",
                    "/axi/pcie@1000120000/rp1/i2c@70000"),
                   (13, "107d508200.i2c", "/devices/platform/soc@107c000000/107d508200.i2c", "/soc@107c000000/i2c@7d508200"),
                   (14, "107d508280.i2c", "/devices/platform/soc@107c000000/107d508280.i2c", "/soc@107c000000/i2c@7d508280")],
        symbols: ["rp1_i2c1": "/axi/pcie@1000120000/rp1/i2c@74000", "i2c1": "/axi/pcie@1000120000/rp1/i2c@74000",
                  "i2c_arm": "/axi/pcie@1000120000/rp1/i2c@74000",
                  "i2c6": "/axi/pcie@1000120000/rp1/i2c@88000", "i2c_csi_dsi0": "/axi/pcie@1000120000/rp1/i2c@88000",
                  "i2c4": "/axi/pcie@1000120000/rp1/i2c@80000", "i2c_csi_dsi1": "/axi/pcie@1000120000/rp1/i2c@80000",
                  "i2c_csi_dsi": "/axi/pcie@1000120000/rp1/i2c@80000",
                  "i2c0": "/axi/pcie@1000120000/rp1/i2c@70000", "i2c_vc": "/axi/pcie@1000120000/rp1/i2c@70000",
                  "ddc0": "/soc@107c000000/i2c@7d508200", "ddc1": "/soc@107c000000/i2c@7d508280"],
        compatible: ["/axi/pcie@1000120000/rp1/i2c@74000": "snps,designware-i2c",
                     "/axi/pcie@1000120000/rp1/i2c@88000": "snps,designware-i2c",
                     "/axi/pcie@1000120000/rp1/i2c@80000": "snps,designware-i2c",
                     "/axi/pcie@1000120000/rp1/i2c@70000": "snps,designware-i2c",
                     "/soc@107c000000/i2c@7d508200": "brcm,brcmstb-i2c", "/soc@107c000000/i2c@7d508280": "brcm,brcmstb-i2c"],
        header: [1])
}

extension I2CDiscoveryTests.PiLayout: CustomTestStringConvertible {
    var testDescription: String { model }
}
