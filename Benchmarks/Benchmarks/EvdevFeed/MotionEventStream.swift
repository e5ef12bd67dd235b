// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Evdev
import MotionCore
import MotionDevices

/// What a controller's motion node sends, as far as the feeder's cost goes:
/// resolutions, MSC_TIMESTAMP spacing, frames per HID report (one report is
/// what the sensor thread finds per wake-up, so one `feed` call), and how
/// many axes change per frame (evdev sends only the axes whose value changed).
struct ControllerShape {
    /// The motion node's name, which picks the driver's axis convention (`EvdevControllerProfile`).
    var nodeName: String
    var accelResolution: Int32
    var gyroResolution: Int32
    var periodMicroseconds: Int64
    /// Axes that change in each frame of a report; its count is the frames per report.
    var axesPerFrame: [Int]
    /// The driver's `fuzz`: a change under 2 × fuzz could be smoothed or
    /// dropped by the input core, so every change here is at least that.
    var fuzz: Int32
    /// The reading at rest: ABS_X, Y, Z, RX, RY, RZ.
    var rest: [Int32]

    var framesPerReport: Int { axesPerFrame.count }

    /// hid-playstation: 8192/g, 1024 per °/s, fuzz 16, one frame per report
    /// every 4 ms. A hand-held controller's noise moves all six axes by
    /// more than the fuzz each frame, so every frame is 6 ABS + MSC + SYN = 8 events.
    static let dualSense = ControllerShape(nodeName: "Sony Interactive Entertainment DualSense Wireless Controller "
                                               + "Motion Sensors",
                                           accelResolution: 8192, gyroResolution: 1024, periodMicroseconds: 4000,
                                           axesPerFrame: [6], fuzz: 16, rest: [0, 8192, 0, 0, 0, 0])

    /// hid-nintendo: 4096/g, 14247 per °/s, fuzz 10, three frames per 15 ms
    /// report, 5 ms apart. Held still, the input core's fuzz filter drops most
    /// small changes, so a frame carries 2 or 3 axes: 3 + 2 + 3 ABS, 3 MSC,
    /// 3 SYN = 14 events per report. The assembler keeps the other axes' values.
    static let joyCon = ControllerShape(nodeName: "Nintendo Switch Left Joy-Con IMU",
                                        accelResolution: 4096, gyroResolution: 14247, periodMicroseconds: 5000,
                                        axesPerFrame: [3, 2, 3], fuzz: 10, rest: [0, 0, 4096, 0, 0, 0])
}

/// The events of a controller's motion node, generated a chunk at a time
/// into a buffer, outside the timed region. Chunks continue one another
/// (axis values, MSC_TIMESTAMP, kernel times), so a feeder kept across chunks
/// sees one unbroken stream, as from a real device: time never goes back and
/// the MSC clock never re-anchors.
///
/// MSC_TIMESTAMP starts 80 ms before its 32-bit wrap, so the first chunk
/// (which the benchmark checks sample by sample before timing) crosses it.
/// Kernel times: a report is stamped when it arrives, 1–2 ms after its last
/// frame was sampled; its frames get the same time (evdev's differ by
/// microseconds), never earlier than the report before.
final class MotionEventStream {
    let shape: ControllerShape
    let events: UnsafeMutableBufferPointer<EvdevEvent>
    /// End index in `events` of each read: one report, or the part of it in this chunk.
    let readEnds: UnsafeMutableBufferPointer<Int>
    private(set) var readCount = 0
    /// Absolute index of the next sample to generate.
    private var nextSample = 0
    /// The axes' present values; the feeder's assembler starts from the same (`setInitial`).
    private var raw: [Int32]
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var reportTime: Int64 = 0
    /// Kernel time of report 0, which anchors the feeder's MSC clock.
    private var anchorTime: Int64 = 0
    static let mscStart = UInt32.max &- 80_000

    init(_ shape: ControllerShape, capacity samples: Int) {
        self.shape = shape
        raw = shape.rest
        let perSample = 2 + shape.axesPerFrame.max()!
        events = .allocate(capacity: samples * perSample)
        events.initialize(repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0))
        readEnds = .allocate(capacity: samples + 1)
        readEnds.initialize(repeating: 0)
    }

    deinit {
        events.deallocate()
        readEnds.deallocate()
    }

    /// The mount matrix `EvdevMotionSource` takes for this node when udev gives none.
    var mount: MountMatrix { EvdevControllerProfile(name: shape.nodeName).mount }

    /// A feeder in the state `EvdevMotionSource.connect` builds: resolutions
    /// from absinfo, the profile's mount matrix, the present values.
    func makeFeeder() -> EvdevSampleFeeder {
        var assembler = EvdevSampleAssembler(accelResolution: shape.accelResolution,
                                             gyroResolution: shape.gyroResolution, mount: mount)
        for (axis, value) in shape.rest.enumerated() { assembler.setInitial(code: UInt16(axis), value: value) }
        return EvdevSampleFeeder(assembler: assembler)
    }

    /// Replaces the buffer's contents with the next `count` samples' events.
    /// `sample` sees each sample's expected raw values and timestamp.
    func fill(samples count: Int, sample: ((_ raw: [Int32], _ timestamp: Int64) -> Void)? = nil) {
        let frames = shape.framesPerReport
        let period = shape.periodMicroseconds * 1000
        var n = 0
        readCount = 0
        for s in nextSample..<(nextSample + count) {
            let position = s % frames
            if position == 0 {
                let arrival = Int64(1000 + next() % 1000) * 1000   // 1–2 ms after the last frame
                let sampled = 1_000_000_000_000 + Int64(s + frames - 1) * period
                reportTime = max(reportTime, (sampled + arrival) / 1000 * 1000)  // µs, as the kernel's timeval
                if s == 0 { anchorTime = reportTime }
            }
            // Gyro, accel, MSC, SYN: the order hid-playstation and hid-nintendo report them in.
            let changing = shape.axesPerFrame[position]
            let first = (s * 5) % 6
            for k in 0..<6 {
                let axis = (k + 3) % 6   // RX, RY, RZ, X, Y, Z
                guard (axis - first + 6) % 6 < changing else { continue }
                raw[axis] = newValue(axis, after: raw[axis])
                events[n] = EvdevEvent(type: .abs, code: UInt16(axis), value: raw[axis], time: reportTime)
                n += 1
            }
            let msc = Self.mscStart &+ UInt32(truncatingIfNeeded: Int64(s) * shape.periodMicroseconds)
            events[n] = EvdevEvent(type: .msc, code: EvdevCode.mscTimestamp, value: Int32(bitPattern: msc), time: reportTime)
            events[n + 1] = EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: reportTime)
            n += 2
            sample?(raw, anchorTime + Int64(s) * period)
            if position == frames - 1 || s == nextSample + count - 1 {
                readEnds[readCount] = n
                readCount += 1
            }
        }
        nextSample += count
    }

    /// Noise around the rest value, on the other side of it from the last
    /// value and 2–8 × fuzz from it, so each change is at least 2 × fuzz and
    /// the input core would pass it unchanged.
    private func newValue(_ axis: Int, after last: Int32) -> Int32 {
        let distance = 2 * shape.fuzz + Int32(truncatingIfNeeded: next() % UInt64(6 * shape.fuzz))
        let rest = shape.rest[axis]
        return last > rest ? rest - distance : rest + distance
    }

    private func next() -> UInt64 {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return random >> 33
    }
}
