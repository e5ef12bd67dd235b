// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import MockDevices

/// The mock-device suites are judged by what their child run reports test by
/// test; a misread report would let a skipped or failed child pass again.
@Suite("A child test run's report")
struct ChildTestReportTests {
    /// As Swift Testing writes it with `--xunit-output`.
    static let report = """
    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites>
      <testsuite name="TestResults" errors="0" tests="2" failures="1" skipped="1" time="0.1">
        <testcase classname="IIOTests.MockDeviceSuites.MPU6050" name="listsChannels()" time="0.012" />
        <testcase classname="IIOTests.MockDeviceSuites.MPU6050" name="deviceVanishes()" >
          <skipped />
        </testcase>
        <testcase classname="IIOTests.MockDeviceSuites.MPU6050" name="listsDeviceAndTrigger()" time="0.04">
          <failure message="Expectation failed: !((context &#8594; IIOContext).isLocal) &amp; &quot;more&quot;" />
        </testcase>
      </testsuite>
    </testsuites>
    """

    @Test("each test's outcome is read: passed, skipped, failed with its message unescaped")
    func outcomes() {
        let results = XUnitReport.results(in: Self.report)
        #expect(results.map(\.id) == ["IIOTests.MockDeviceSuites.MPU6050/listsChannels()",
                                      "IIOTests.MockDeviceSuites.MPU6050/deviceVanishes()",
                                      "IIOTests.MockDeviceSuites.MPU6050/listsDeviceAndTrigger()"])
        #expect(results.map(\.outcome) == [.passed, .skipped,
                                           .failed("Expectation failed: !((context → IIOContext).isLocal) & \"more\"")])
    }

    @Test("a run passes only when it reported tests and every one passed")
    func verdict() {
        let all = XUnitReport.results(in: Self.report)
        func run(_ tests: [ChildTestRun.TestResult], status: Int32 = 0) -> ChildTestRun {
            ChildTestRun(command: ["test"], status: status, output: "", timedOut: false, tests: tests)
        }
        #expect(run([all[0]]).passed)
        #expect(!run([all[0]], status: 1).passed)
        #expect(!run([]).passed)
        #expect(!run([all[0], all[1]]).passed)
        #expect(!run(all).passed)
        #expect(run(all).description.hasPrefix("""
            IIOTests.MockDeviceSuites.MPU6050/deviceVanishes() was skipped
            IIOTests.MockDeviceSuites.MPU6050/listsDeviceAndTrigger() failed: Expectation failed:
            """))
    }
}
