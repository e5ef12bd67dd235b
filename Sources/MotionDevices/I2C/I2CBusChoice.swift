// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C

/// Which I²C buses `--source auto` (and `--source i2c` without a bus) reads
/// a WHO_AM_I register on: only where a HAT or a breakout can sit. A bus
/// the player names (`--source i2c:N`) is always read.
///
/// On a Raspberry Pi the device tree says which bus is the 40-pin header's:
/// its `__symbols__` label `i2c_arm` names the controller on GPIO 2 and 3
/// (`/soc/i2c@7e804000` on a Pi 3 or 4, RP1's `i2c@74000` on a Pi 5), and
/// each adapter's `of_node` names its controller. That bus is read, and so
/// is a bus laid on header pins with the `i2c-gpio` overlay. The others are
/// not: the HAT ID EEPROM's bus, the camera and display buses, HDMI's DDC,
/// and controllers an overlay routes elsewhere (name one to use it).
///
/// A machine without a device tree (a PC, a virtual machine) has no header:
/// every bus is read except a PC chipset's SMBus host and a graphics
/// card's buses (DDC, DisplayPort AUX), known by their adapter names.
public enum I2CBusChoice {
    /// Why `--source auto` leaves `adapter` alone, nil when it reads it.
    public static func skipReason(_ adapter: I2CAdapter, tree: DeviceTree?, sysfs: String = "/sys") -> String? {
        if let tree, tree.isRaspberryPi, let header = tree.symbol("i2c_arm") {
            guard let node = adapter.deviceTreeNode(sysfs: sysfs) else {
                return "not the GPIO header's bus (no device-tree node); name it to use it: --source i2c:\(adapter.number)"
            }
            if node == header || tree.compatible(of: node).contains("i2c-gpio") { return nil }
            let labels = tree.labels(of: node)
            let named = labels.isEmpty ? node : "\(node), \(labels.joined(separator: ", "))"
            return "not the GPIO header's bus (\(named)); name it to use it: --source i2c:\(adapter.number)"
        }
        return isHostOrDisplayBus(adapter) ? "a PC chipset's or a graphics card's bus" : nil
    }

    /// Adapter names of PC chipset SMBus hosts and graphics cards' buses.
    public static func isHostOrDisplayBus(_ adapter: I2CAdapter) -> Bool {
        let markers = ["SMBus I801", "SMBus PIIX4", "SMBus nForce", "SMBus Via", "SMBus AMD", "SMBus ISMT",
                       "i915", "nvkm", "NVIDIA", "amdgpu", "radeon", "AUX", "DPDDC", "DDC"]
        return markers.contains { adapter.name.contains($0) }
    }
}
