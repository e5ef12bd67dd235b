// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Evdev
import LibC
import SystemCalls

@Suite("Opening what is not there, or not an input node")
struct OpenErrorTests {
    @Test("opening a missing evdev node fails with ENOENT and names the node")
    func missingEvdevNode() {
        #expect {
            _ = try EvdevDevice(path: "/nonexistent/event42")
        } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.errno == ENOENT && e.description.hasPrefix("/nonexistent/event42: cannot open")
        }
    }

    @Test("a file that is not an input node is refused, and the message says what was expected",
          .disabled(if: Emulation.isQemuUser, Comment(rawValue: Emulation.unknownIoctl)))
    func notAnInputNode() {
        #expect {
            _ = try EvdevDevice(path: "/dev/null")
        } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.path == "/dev/null" && e.description.contains("not an evdev input node")
        }
    }
}
