// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls
import Evdev
import LibC

/// Game controls from evdev: a gamepad's D-pad and buttons, or the Sense
/// HAT joystick, so the game is playable on a Pi with no keyboard.
///
/// Read on the main thread once a frame, without blocking (the nodes are
/// opened non-blocking; a frame is 16 ms, quick enough for menus). A node
/// that goes away is dropped. The Sense HAT joystick is grabbed: its
/// rpisense-js driver sends KEY_UP… KEY_ENTER, which the console would also
/// turn into keystrokes on the game's terminal, doubling every press.
public final class PadControls: PadSource {
    private struct Pad {
        let device: EvdevDevice
        let isSenseHat: Bool
        /// The D-pad hat's last value per axis, so a move counts once.
        var hat: (x: Int32, y: Int32) = (0, 0)
    }

    private var pads: [Pad] = []
    private let events = UnsafeMutableBufferPointer<EvdevEvent>.allocate(capacity: 64)

    /// The names of the controls in use, for the player.
    public var names: [String] { pads.map(\.device.name) }

    /// Opens the event nodes at `paths` that are gamepads or the Sense HAT
    /// joystick and this user may read (a motion sensor's node is none of them:
    /// the caller, which finds the nodes, leaves those out).
    public init(paths: [String]) {
        events.initialize(repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0))
        for path in paths {
            guard let device = try? EvdevDevice(path: path) else { continue }
            if Self.isSenseHatJoystick(device) {
                try? device.grab()
                pads.append(Pad(device: device, isSenseHat: true))
            } else if Self.isGamepad(device) {
                pads.append(Pad(device: device, isSenseHat: false))
            }
        }
    }

    deinit {
        for pad in pads { try? pad.device.ungrab() }
        events.deallocate()
    }

    public static func isSenseHatJoystick(_ device: EvdevDevice) -> Bool { isSenseHatJoystick(name: device.name) }

    /// Both drivers name it "Raspberry Pi Sense HAT Joystick" (udev/70-tiltmaze.rules matches it so).
    public static func isSenseHatJoystick(name: String) -> Bool { name.contains("Sense HAT Joystick") }

    /// A gamepad in the kernel's sense (Documentation/input/gamepad.rst):
    /// it has the south face button (BTN_GAMEPAD), or a Start button.
    public static func isGamepad(_ device: EvdevDevice) -> Bool {
        device.hasEvent(type: .key, code: EvdevCode.buttonSouth) || device.hasEvent(type: .key, code: EvdevCode.buttonStart)
    }

    /// Reads what every pad has sent since the last call and hands each
    /// press to `handle`, in order.
    public func poll(_ handle: (PadButton) -> Void) {
        var i = 0
        while i < pads.count {
            if drain(&pads[i], handle) {
                i += 1
            } else {
                pads.remove(at: i)   // gone (unplugged, switched off)
            }
        }
    }

    /// Returns false when the pad is gone.
    private func drain(_ pad: inout Pad, _ handle: (PadButton) -> Void) -> Bool {
        while true {
            let result: EvdevReadResult
            do {
                result = try pad.device.readEvents(into: events)
            } catch {
                return false
            }
            guard result != .wouldBlock else { return true }
            for e in events[0 ..< result.count] {
                if let button = Self.button(for: e, on: &pad) { handle(button) }
            }
        }
    }

    /// What one event means. Keys count when pressed and, for the
    /// directions, on autorepeat (holding the joystick scrolls a menu).
    private static func button(for e: EvdevEvent, on pad: inout Pad) -> PadButton? {
        if e.type == .abs {
            return hatInput(code: e.code, value: e.value, hat: &pad.hat)
        }
        guard e.type == .key, e.value != 0 else { return nil }
        let direction: PadButton?
        switch e.code {
        case EvdevCode.keyUp, EvdevCode.buttonDpadUp: direction = .up
        case EvdevCode.keyDown, EvdevCode.buttonDpadDown: direction = .down
        case EvdevCode.keyLeft, EvdevCode.buttonDpadLeft: direction = .left
        case EvdevCode.keyRight, EvdevCode.buttonDpadRight: direction = .right
        default: direction = nil
        }
        if let direction { return direction }
        guard e.value == 1 else { return nil }
        switch e.code {
        case EvdevCode.keyEnter, EvdevCode.buttonSouth: return .south
        // The mainline sensehat-joystick driver reports the press as BTN_SELECT:
        // the joystick's one button, so it is the south one.
        case EvdevCode.buttonSelect: return pad.isSenseHat ? .south : .select
        case EvdevCode.buttonEast: return .east
        case EvdevCode.buttonStart, EvdevCode.buttonMode: return .start
        default: return nil
        }
    }

    /// A D-pad on ABS_HAT0X/Y (hid-playstation, hid-nintendo's Pro): a move
    /// from the centre is a press. Y grows downwards.
    public static func hatInput(code: UInt16, value: Int32, hat: inout (x: Int32, y: Int32)) -> PadButton? {
        switch code {
        case EvdevCode.absHat0X:
            defer { hat.x = value }
            guard value != hat.x, value != 0 else { return nil }
            return value < 0 ? .left : .right
        case EvdevCode.absHat0Y:
            defer { hat.y = value }
            guard value != hat.y, value != 0 else { return nil }
            return value < 0 ? .up : .down
        default:
            return nil
        }
    }
}
