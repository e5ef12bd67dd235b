// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// A spirit level: how far each edge of the board is down, in degrees, from
// whatever motion sensor is attached (or the one named: sim, replay:FILE,
// iio:NAME, evdev:PATH). Ends with the recording, or on Ctrl-C.
import LinuxMotion
#if canImport(Glibc)
import Glibc
#endif

let argument = CommandLine.arguments.dropFirst().first ?? "auto"
guard let request = SensorRequest(argument: argument) else {
    print("usage: spirit-level [auto | sim | iio:NAME | evdev:PATH | i2c:BUS | replay:FILE]")
    exit(2)
}

/// Degrees with one decimal and a sign: "+3.2°".
func degrees(_ radians: Double) -> String {
    let tenths = (radians * 1800 / .pi).rounded() + 0   // + 0: no "-0.0"
    return (tenths < 0 ? "" : "+") + "\(tenths / 10)°"
}

/// A bubble in a tube nine places wide: it drifts to the high side, as in a real level.
func bubble(_ radians: Double) -> String {
    let place = 4 - Int((radians / (10 * .pi / 180) * 4).rounded())
    return "[" + (0 ..< 9).map { $0 == min(max(place, 0), 8) ? "o" : " " }.joined() + "]"
}

let manager = MotionManager(source: request, rate: 100)
var next: Int64 = 0
do {
    for try await motion in try manager.deviceMotionUpdates() {
        if next == 0 { print("reading \(manager.sensorDescription ?? argument)") }
        guard motion.timestamp >= next else { continue }
        next = motion.timestamp + 200_000_000   // five lines a second
        // Gravity pulls towards the lower edge: its share along an axis is that edge's slope.
        let g = motion.gravity, length = max(g.length, 1e-9)
        let right = asin(max(-1, min(1, g.x / length))), top = asin(max(-1, min(1, g.y / length)))
        print("right edge down \(degrees(right)) \(bubble(right))   top edge down \(degrees(top)) \(bubble(top))")
    }
} catch {
    print("spirit-level: \(error)")
    exit(1)
}
