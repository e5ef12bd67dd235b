// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices
import SystemCalls

@Suite("Config directory")
struct ConfigDirectoryTests {
    @Test("XDG_CONFIG_HOME when absolute, else ~/.config; nothing usable gives nil")
    func resolution() {
        #expect(ConfigDirectory.path(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/pi"]) == "/x/conf/tiltmaze")
        #expect(ConfigDirectory.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/pi"]) == "/home/pi/.config/tiltmaze")
        #expect(ConfigDirectory.path(environment: ["HOME": "/home/pi/"]) == "/home/pi/.config/tiltmaze")
        #expect(ConfigDirectory.path(environment: ["HOME": ""]) == nil)
        #expect(ConfigDirectory.path(environment: [:]) == nil)
    }
}
