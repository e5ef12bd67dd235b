// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Gamepads
import MotionDevices

/// The evdev part of `doctor`: motion nodes, their gamepads, the Sense HAT
/// joystick, and whether this user may read them.
struct EvdevFindings {
    var sensors: [(sensor: EvdevMotionSensor, motion: DeviceAccess, gamepad: DeviceAccess?)]
    var joystick: (node: InputNode, access: DeviceAccess)?

    /// The evdev half of what `selection` found.
    init(_ selection: SensorSelection) {
        sensors = selection.evdev.map { ($0.sensor, $0.motion, $0.gamepad) }
        if let stick = selection.inputNodes.first(where: { PadControls.isSenseHatJoystick(name: $0.name) }) {
            joystick = (stick, DeviceAccess.check(stick.path, need: .read, grantedBy: .seat))
        }
    }

    /// The `evdev` lines.
    func lines(anotherSensorUsable: Bool) -> [DoctorLine] {
        var out: [DoctorLine] = []
        if sensors.isEmpty {
            out.append(DoctorLine(status: anotherSensorUsable ? .ok : .warn, check: "evdev",
                                  text: "no input node with INPUT_PROP_ACCELEROMETER: no motion controller connected (pairing: hardware.md)"))
        }
        for (sensor, motion, gamepad) in sensors {
            out.append(motion.allowed
                ? .ok("evdev", "\(sensor.motion): readable")
                : .fail("evdev", "\(sensor.motion.name): \(motion.description)"))
            if let gamepad, let node = sensor.gamepad {
                out.append(gamepad.allowed
                    ? .ok("evdev", "\(node): readable (its buttons pause and restart)")
                    : .warn("evdev", "\(node.name), the buttons: \(gamepad.description)"))
            }
        }
        if let (node, access) = joystick {
            out.append(access.allowed
                ? .ok("evdev", "\(node): readable (menus, and tilt without a sensor)")
                : .warn("evdev", "\(node.name): \(access.description)"))
        }
        return out
    }
}
