// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// Runs TiltMaze's attitude filter over a trajectory file and prints, per
// sample, the estimated "up" direction in the board frame and the attitude.
// The file is the one Benchmarks/accuracy/filters.py writes for every filter
// it compares:
//
//   t_ns,ax,ay,az,gx,gy,gz[,mx,my,mz]   (monotonic ns, m/s², rad/s, µT; board frame)
//
// Output: one line per sample, `ux,uy,uz,w,x,y,z`: up, then the attitude
// (board → earth) in the reference frame asked for.
//
//   --accelerometer-only   the gyroscope and magnetometer columns are ignored;
//                          the estimate is TiltEstimator's (a low-pass of the
//                          accelerometer, what the game uses without a gyroscope)
//   --no-gyroscope         the gyroscope columns are ignored: TiltEstimator
//                          with the accelerometer and the magnetometer
//   --magnetometer         the magnetometer columns are used; the attitude is
//                          given in xMagneticNorthZVertical
//   --no-hard-iron         with --magnetometer: do not learn an offset riding
//                          with the board while it turns (HardIronParameters.isEnabled)
import MotionCore
#if canImport(Glibc)
import Glibc
#endif

var options = Set(CommandLine.arguments.dropFirst().filter { $0.hasPrefix("--") })
let files = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let known: Set = ["--accelerometer-only", "--no-gyroscope", "--magnetometer", "--no-hard-iron"]
guard options.isSubset(of: known), files.count == 1, let file = fopen(files[0], "r") else {
    print("usage: FilterAccuracy [--accelerometer-only | --no-gyroscope] [--magnetometer [--no-hard-iron]] TRAJECTORY.csv")
    exit(2)
}
let accelerometerOnly = options.contains("--accelerometer-only")
let useGyroscope = !accelerometerOnly && !options.contains("--no-gyroscope")
let useMagnetometer = !accelerometerOnly && (options.contains("--magnetometer") || !useGyroscope)
let frame: AttitudeReferenceFrame = options.contains("--magnetometer") ? .xMagneticNorthZVertical : .xArbitraryZVertical
var parameters = AttitudeFilter.Parameters()
parameters.hardIron.isEnabled = !options.contains("--no-hard-iron")
var filter = AttitudeFilter(parameters: parameters)
var estimator = TiltEstimator()
var line: UnsafeMutablePointer<CChar>?
var capacity = 0
var header = true
var out = ""
while getline(&line, &capacity, file) > 0, let line {
    if header { header = false; continue }
    let fields = String(cString: line).split(separator: ",").map { Double($0.filter { !$0.isWhitespace }) ?? .nan }
    guard fields.count >= 7, !useMagnetometer || fields.count >= 10 else { continue }
    var sample = MotionSample(timestamp: Int64(fields[0]), acceleration: Vector3(fields[1], fields[2], fields[3]),
                              fields: .acceleration)
    if useGyroscope {
        sample.rotationRate = Vector3(fields[4], fields[5], fields[6])
        sample.fields.insert(.rotationRate)
    }
    if useMagnetometer {
        sample.magneticField = Vector3(fields[7], fields[8], fields[9])
        sample.fields.insert(.magneticField)
    }
    let up: Vector3, q: Quaternion
    if useGyroscope {
        filter.add(sample)
        up = filter.up
        q = filter.attitude(in: frame)
    } else {
        estimator.add(sample)
        up = .zero - estimator.measuredGravity
        q = estimator.attitude(in: frame)
    }
    out += "\(up.x),\(up.y),\(up.z),\(q.w),\(q.x),\(q.y),\(q.z)\n"
    if out.utf8.count > 1 << 16 { print(out, terminator: ""); out = "" }
}
print(out, terminator: "")
