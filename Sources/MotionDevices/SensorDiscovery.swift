// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemCalls

/// An evdev input node as sysfs describes it (readable by any user).
public struct InputNode: Sendable, Equatable, CustomStringConvertible {
    /// "/dev/input/event7".
    public var path: String
    /// The device's name: "… DualSense Wireless Controller Motion Sensors".
    public var name: String
    /// The unique id (a controller's Bluetooth address); shared by a
    /// controller's motion node and its gamepad node.
    public var uniq: String?
    /// Whether the node sets `INPUT_PROP_ACCELEROMETER`.
    public var isMotionSensor: Bool

    public var description: String { "\(name) (\(path))" }

    public init(path: String, name: String, uniq: String?, isMotionSensor: Bool) {
        self.path = path
        self.name = name
        self.uniq = uniq
        self.isMotionSensor = isMotionSensor
    }
}

/// A motion node and the gamepad node of the same controller, if any.
public struct EvdevMotionSensor: Sendable, Equatable, CustomStringConvertible {
    public var motion: InputNode
    public var gamepad: InputNode?
    public var description: String { motion.description }
}

/// Finds evdev motion sensors without opening them, so it works for any user.
/// (IIO IMUs are found through libiio: `IIOIMU.find(in:)`.)
public enum SensorDiscovery {
    /// Every `eventN` node under `<sysfs>/class/input`, in node order.
    public static func inputNodes(sysfs: String = "/sys") -> [InputNode] {
        let base = sysfs + "/class/input"
        var nodes: [InputNode] = []
        for node in Sysfs.entries(of: base) {
            guard node.hasPrefix("event"), Int(node.dropFirst(5)) != nil else { continue }
            let device = base + "/" + node + "/device"
            // INPUT_PROP_ACCELEROMETER is bit 6 of the last (lowest) word of the bitmap.
            let bits = Sysfs.firstLine(of: device + "/properties").flatMap { UInt64($0.split(separator: " ").last ?? "", radix: 16) } ?? 0
            let uniq = Sysfs.firstLine(of: device + "/uniq").flatMap { $0.isEmpty ? nil : $0 }
            nodes.append(InputNode(path: "/dev/input/" + node, name: Sysfs.firstLine(of: device + "/name") ?? node,
                                   uniq: uniq, isMotionSensor: bits & (1 << 6) != 0))
        }
        return nodes.sorted { (Int($0.path.dropFirst(16)) ?? 0) < (Int($1.path.dropFirst(16)) ?? 0) }
    }

    /// Motion nodes, each paired with the controller's gamepad node by `uniq`.
    public static func evdevSensors(sysfs: String = "/sys") -> [EvdevMotionSensor] {
        pair(inputNodes(sysfs: sysfs))
    }

    /// Pairs each motion node with a non-motion node of the same non-empty `uniq`.
    public static func pair(_ nodes: [InputNode]) -> [EvdevMotionSensor] {
        nodes.filter(\.isMotionSensor).map { motion in
            let gamepad = motion.uniq.flatMap { uniq in nodes.first { !$0.isMotionSensor && $0.uniq == uniq } }
            return EvdevMotionSensor(motion: motion, gamepad: gamepad)
        }
    }
}
