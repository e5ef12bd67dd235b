// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MotionDevices
import SystemCalls
import LibC

/// The device side adds what the wrappers may not know: this program's udev rules.
@Suite("Set-up advice on device errors")
struct SetupAdviceTests {
    @Test("a permission error from a wrapper gains the pointer to udev/README.md")
    func permission() {
        for code in [EACCES, EPERM] {
            let advised = DeviceError(errno: code, operation: "open", path: "/dev/input/event3").withSetupAdvice
            #expect(advised.description.contains("udev/README.md"), "\(advised)")
            #expect(advised.description.hasPrefix("/dev/input/event3: cannot open"))
        }
    }

    @Test("an error that already says what to do, or is not about permission, is left as it is")
    func leftAlone() {
        let detailed = DeviceError(errno: EACCES, operation: "mkdir", path: "/sys/kernel/config/iio", detail: "needs root")
        #expect(detailed.withSetupAdvice == detailed)
        let gone = DeviceError(errno: ENODEV, operation: "read events", path: "/dev/input/event3")
        #expect(gone.withSetupAdvice == gone)
    }

    @Test("hrtimer triggers that need root: the advice names the rules' group; other states say what is missing")
    func hrtimerAdvice() {
        #expect(HrtimerTrigger.Availability.available(writable: false).advice.contains("group tiltmaze"))
        #expect(HrtimerTrigger.Availability.moduleNotLoaded.advice == HrtimerTrigger.Availability.moduleNotLoaded.description)
    }
}
