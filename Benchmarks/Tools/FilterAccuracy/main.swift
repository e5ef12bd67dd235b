// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// Runs TiltMaze's attitude filter over a trajectory file and prints, per
// sample, the estimated "up" direction in the board frame. The file is the
// one Benchmarks/accuracy/compare.py writes for every filter it compares:
//
//   t_ns,ax,ay,az,gx,gy,gz,...      (monotonic ns, m/s², rad/s, board frame; more columns ignored)
//
// Output: one line per sample, `ux,uy,uz`.
//
// With --accelerometer-only the gyroscope columns are ignored and the
// estimate is what the physics uses for a sensor without one: TiltEstimator's
// low-pass of the accelerometer.
import MotionCore
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let accelerometerOnly = arguments.first == "--accelerometer-only"
guard arguments.count == (accelerometerOnly ? 2 : 1), let file = fopen(arguments.last!, "r") else {
    print("usage: FilterAccuracy [--accelerometer-only] TRAJECTORY.csv")
    exit(2)
}
var filter = AttitudeFilter()
var lowPass = TiltEstimator()
var line: UnsafeMutablePointer<CChar>?
var capacity = 0
var header = true
var out = ""
while getline(&line, &capacity, file) > 0, let line {
    if header { header = false; continue }
    let fields = String(cString: line).split(separator: ",").map { Double($0.filter { !$0.isWhitespace }) ?? .nan }
    guard fields.count >= 7 else { continue }
    let up: Vector3
    if accelerometerOnly {
        lowPass.add(MotionSample(timestamp: Int64(fields[0]), acceleration: Vector3(fields[1], fields[2], fields[3]),
                                 fields: .acceleration))
        up = .zero - lowPass.gravity
    } else {
        filter.add(MotionSample(timestamp: Int64(fields[0]), acceleration: Vector3(fields[1], fields[2], fields[3]),
                                rotationRate: Vector3(fields[4], fields[5], fields[6]), fields: [.acceleration, .rotationRate]))
        up = filter.up
    }
    out += "\(up.x),\(up.y),\(up.z)\n"
    if out.utf8.count > 1 << 16 { print(out, terminator: ""); out = "" }
}
print(out, terminator: "")
