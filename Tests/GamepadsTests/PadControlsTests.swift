// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Gamepads
import Controls

@Suite("Gamepad and Sense HAT controls")
struct PadControlsTests {
    @Test("a D-pad hat counts a move away from the centre once; Y grows downwards")
    func hat() {
        var hat: (x: Int32, y: Int32) = (0, 0)
        let x: UInt16 = 0x10, y: UInt16 = 0x11   // ABS_HAT0X, ABS_HAT0Y
        #expect(PadControls.hatInput(code: y, value: -1, hat: &hat) == .up)
        #expect(PadControls.hatInput(code: y, value: -1, hat: &hat) == nil)
        #expect(PadControls.hatInput(code: y, value: 0, hat: &hat) == nil)
        #expect(PadControls.hatInput(code: y, value: 1, hat: &hat) == .down)
        #expect(PadControls.hatInput(code: x, value: -1, hat: &hat) == .left)
        #expect(PadControls.hatInput(code: x, value: 1, hat: &hat) == .right)
        #expect(PadControls.hatInput(code: 0x00, value: 1, hat: &hat) == nil)
    }
}
