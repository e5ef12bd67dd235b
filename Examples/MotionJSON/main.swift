// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// The fused motion of every sample as a line of JSON, with the keys of
// `tiltmaze monitor --json`: through the async sequence, or with --callback
// through the handler on the manager's thread. Ends with the recording.
import LinuxMotion
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard let request = SensorRequest(argument: arguments.first ?? "auto") else {
    print("usage: motion-json [auto | sim | iio:NAME | evdev:PATH | i2c:BUS | replay:FILE] [--callback]")
    exit(2)
}

@Sendable func line(_ m: DeviceMotion) -> String {
    func v(_ v: Vector3) -> String { "[\(v.x),\(v.y),\(v.z)]" }
    let q = m.attitude.quaternion
    return "{\"accel\":\(v(m.acceleration)),\"gravity\":\(v(m.gravity)),\"attitude\":[\(q.w),\(q.x),\(q.y),\(q.z)],"
        + "\"user_accel\":\(v(m.userAcceleration)),\"rotation_rate\":\(m.rotationRate.map(v) ?? "null")}"
}

// No stored calibration: the motion must be the sensor's alone, as monitor's.
let manager = MotionManager(source: request, rate: 100, calibrationStore: nil)
do {
    if arguments.contains("--callback") {
        let ended = Mutex<MotionError??>(nil)
        try manager.startDeviceMotionUpdates(handler: { print(line($0)) }, completion: { error in
            ended.withLock { $0 = .some(error) }
        })
        while ended.withLock({ $0 }) == nil { usleep(10_000) }
        manager.stop()
        if case .some(.some(let error)) = ended.withLock({ $0 }) { throw error }
    } else {
        // A large buffer: a comparison needs every value, even if printing falls behind.
        for try await motion in try manager.deviceMotionUpdates(bufferLimit: 1 << 20) { print(line(motion)) }
    }
} catch {
    let text = "motion-json: \(error)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
