// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Gamepads
import MotionDevices

/// The gamepads and the Sense HAT joystick on this machine: every input
/// node but the motion sensors', which are the sensor side's.
func connectedPads() -> PadControls {
    PadControls(paths: SensorDiscovery.inputNodes().filter { !$0.isMotionSensor }.map(\.path))
}
