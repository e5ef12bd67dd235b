// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Foundation
import IIO
import MotionCore
import MotionDevices
import MockDevices
import TestSupport
import Handoff

/// A real `iiod` (Debian's package, the daemon libiio's network backend
/// talks to) serving a umockdev testbed on localhost, read through
/// `ip:127.0.0.1:PORT` as the game would read a Pi's sensor over the network.
@Suite("IIO over the network: a real iiod serving a testbed", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIONetworkTests {
    @Test("the context at ip:127.0.0.1:PORT lists the testbed's MPU-6050 with its channels and attributes")
    func discovery() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let iiod = try IIODaemon()
            try withExtendedLifetime(iiod) {
                let port = iiod.port
                let context = try IIOContext(uri: "ip:127.0.0.1:\(port)")
                #expect(!context.isLocal)
                let imus = IIOIMU.find(in: context)
                #expect(imus.map(\.name) == ["mpu6050"])
                #expect(imus.first?.identity == "iio mpu6050 at ip:127.0.0.1:\(port)")
                #expect(imus.first?.devices.first?.channels.filter(\.isScanElement).count == 8)
                // Nothing of this machine's is asked about a remote device: no configfs trigger to make.
                #expect(TriggerChoice.choose(for: imus[0].devices[0], configfsRoot: "/") == .dataReady("mpu6050-dev0"))
            }
        }
    }

    /// An MPU-6050 scan: accel and anglvel big-endian s16, temperature off, then the timestamp.
    func scan(_ raw: Int16, _ t: Int64) -> [UInt8] {
        var s = ScanBytes()
        s.be16(raw); s.be16(0); s.be16(16384); s.be16(0); s.be16(0); s.be16(raw)
        s.pad(to: 8)
        s.le64(t)
        return s.bytes
    }

    @Test("capture through iiod: the scans written to the testbed's node arrive as exact samples, a buffer of 20 ms at a time; stop is prompt")
    func capture() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let iiod = try IIODaemon()
            try withExtendedLifetime(iiod) {
                let context = try IIOContext(uri: "ip:127.0.0.1:\(iiod.port)")
                let imu = try #require(IIOIMU.find(in: context).first)
                let source = IIOMotionSource(imu: imu, rate: 200, noDataTimeout: .seconds(3600))
                try source.start()
                // The remote side was set up as a local one would be: rate, trigger, clock, buffer on.
                #expect(source.rate == 200)
                #expect(eventually { testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "1" })
                #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "mpu6050-dev0")
                #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/current_timestamp_clock") == "monotonic")
                #expect(IIOMotionSource.bufferSamples(rate: 200, local: false) == 4)
                var bytes: [UInt8] = []
                for i in 0..<8 { bytes += scan(Int16(1000 * (i + 1)), 1_000_000_000 + Int64(i) * 5_000_000) }
                try testbed.writeScans(bytes, to: "/dev/iio:device0")
                var got: [MotionSample] = []
                #expect(eventually { source.samples.drain { got.append($0) }; return got.count >= 8 })
                #expect(got.map(\.timestamp) == (0..<8).map { 1_000_000_000 + Int64($0) * 5_000_000 })
                #expect(got.map(\.acceleration.x) == (1...8).map { Double(1000 * $0) * 0.000598 })
                #expect(got.allSatisfy { $0.acceleration.z == 16384 * 0.000598 })
                // Nothing more comes: the refill waits on the network; stop must still end it at once.
                #expect(returns { source.stop() })
                #expect(eventually { testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "0" })
                #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
            }
        }
    }
}

@Suite("IIO over the network, under umockdev-wrapper")
struct IIONetworkUnderPreload {
    @Test("the iiod suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "MotionIIOTests.IIONetworkTests/")
        #expect(run.passed, "\(run)")
    }
}
