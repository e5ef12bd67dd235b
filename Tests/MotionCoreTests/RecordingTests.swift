// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import Foundation

@Suite("Recordings and CSV samples")
struct RecordingTests {
    let header = RecordingHeader(device: "mpu6050 on iio:device0", identity: "iio mpu6050 at platform/x/1-0068", rate: 200,
                                 accelScale: 0.000598550, gyroScale: 0.000133158, hasGyroscope: true,
                                 mount: MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)))

    func samples(_ n: Int = 50) -> [MotionSample] {
        (0..<n).map { i in
            let t = Double(i) * 0.005
            return MotionSample(timestamp: 1_000_000_000 + Int64(i) * 5_000_000,
                                acceleration: Vector3(sin(t) * 0.1, 0.3 / 7, 9.80665 + Double(i) * 1e-13),
                                // An accelerometer-only sample carries zeros where the gyroscope would be.
                                rotationRate: i % 5 == 4 ? .zero : Vector3(cos(t) * 0.01, -1.0 / 3, 0),
                                fields: i % 5 == 4 ? .acceleration : [.acceleration, .rotationRate])
        }
    }

    func recordingBytes(_ list: [MotionSample]) -> [UInt8] {
        var bytes = header.encoded
        for s in list { s.appendRecorded(to: &bytes) }
        return bytes
    }

    func error(_ bytes: [UInt8]) -> RecordingError? {
        do { _ = try Recording.parse(bytes, name: "f"); return nil } catch { return error }
    }

    func error(csv text: String) -> RecordingError? { error(Array(text.utf8)) }

    @Test("a recording reads back its header and every sample bit for bit")
    func roundTrip() throws {
        let list = samples()
        let bytes = recordingBytes(list)
        #expect(bytes.count == header.encoded.count + list.count * 57)
        let read = try Recording.parse(bytes, name: "f")
        #expect(read.header == header)
        #expect(read.samples == list)
    }

    @Test("an accelerometer scaled by gravity is said in the header, read back, and a bad value named")
    func scaledByGravity() throws {
        var unitless = header
        unitless.accelScale = nil
        unitless.accelerometerScaledByGravity = true
        let text = String(decoding: unitless.encoded, as: UTF8.self)
        #expect(text.contains("\naccel_scale: unknown\n") && text.contains("\naccel_scaled_by_gravity: yes\n\n"))
        #expect(try Recording.parse(unitless.encoded, name: "f").header == unitless)
        #expect(!String(decoding: header.encoded, as: UTF8.self).contains("accel_scaled_by_gravity"), "said only when so")
        let bad = Array(text.replacingFirst("accel_scaled_by_gravity: yes", with: "accel_scaled_by_gravity: maybe").utf8)
        #expect(error(bad)?.description == "line 8: accel_scaled_by_gravity: expected \"yes\" or \"no\", found \"maybe\"")
    }

    @Test("a device with a magnetometer records version 2: the field's 24 bytes on every sample, its scale in the header, read back bit for bit")
    func versionTwo() throws {
        var nine = header
        nine.hasMagnetometer = true
        nine.magnetometerScale = 0.15
        let list = samples().enumerated().map { i, s in
            var s = s
            // The field comes on every third sample, as a slower magnetometer's does.
            if i % 3 == 0 { s.magneticField = Vector3(21.5 + Double(i) / 7, -3.25, -40.125); s.fields.insert(.magneticField) }
            return s
        }
        var bytes = nine.encoded
        for s in list { s.appendRecorded(to: &bytes, withMagneticField: true) }
        #expect(String(decoding: nine.encoded, as: UTF8.self).hasPrefix("TILTMAZE RECORDING 2\n"))
        #expect(String(decoding: nine.encoded, as: UTF8.self).contains("\nmagn_scale: 0.15\nmount_matrix:"))
        #expect(bytes.count == nine.encoded.count + list.count * 81 && nine.sampleSize == 81)
        let read = try Recording.parse(bytes, name: "f")
        #expect(read.header == nine)
        #expect(read.samples == list)
        // Written as version 1 (a device without one), a stray field is left out, not written as an unknown bit.
        var old = header.encoded
        for s in list { s.appendRecorded(to: &old) }
        let oldRead = try Recording.parse(old, name: "f")
        #expect(oldRead.samples.allSatisfy { !$0.hasMagneticField } && oldRead.samples.count == list.count)
        // A version 1 sample claiming a field is refused, naming the byte.
        var claimed = header.encoded
        list[0].appendRecorded(to: &claimed)
        claimed[header.encoded.count + 8] |= 0b100
        #expect(error(claimed)?.description == "byte \(header.encoded.count): sample 1: a magnetic field in a version 1 recording, which has none")
    }

    @Test("every CSV form reads: with and without gyroscope and magnetometer columns; a magnetometer's empty fields between its readings")
    func csvForms() throws {
        let nine = try Recording.parse(Array("t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\n5,0,0,9.8,0,0,0.5,20,-5,-40\n10,0,0,9.8,0,0,0.5,,,\n".utf8), name: "n")
        #expect(nine.samples.map(\.fields) == [.all, [.acceleration, .rotationRate]])
        #expect(nine.samples[0].magneticField == Vector3(20, -5, -40) && nine.header.hasMagnetometer)
        let accel = try Recording.parse(Array("t_ns,ax,ay,az\n5,0,0,9.8\n".utf8), name: "a")
        #expect(accel.samples.map(\.fields) == [.acceleration] && !accel.header.hasMagnetometer && !accel.header.hasGyroscope)
        let compass = try Recording.parse(Array("t_ns,ax,ay,az,mx,my,mz\n5,0,0,9.8,20,-5,-40\n".utf8), name: "c")
        #expect(compass.samples.map(\.fields) == [[.acceleration, .magneticField]] && !compass.header.hasGyroscope)
        // What row writes reads back exactly, the field included.
        var s = MotionSample(timestamp: 7, acceleration: Vector3(0.1, 0.2, 9.7), magneticField: Vector3(1.0 / 3, 2, 3), fields: [.acceleration, .magneticField])
        var read = try Recording.parse(Array((SampleCSV.header + "\n" + SampleCSV.row(s) + "\n").utf8), name: "r")
        #expect(read.samples == [s])
        s.fields = .acceleration
        s.magneticField = .zero
        read = try Recording.parse(Array((SampleCSV.header + "\n" + SampleCSV.row(s) + "\n").utf8), name: "r")
        #expect(read.samples == [s])
    }

    @Test("the header is readable text ending in a blank line")
    func headerText() {
        let text = String(decoding: header.encoded, as: UTF8.self)
        #expect(text == """
            TILTMAZE RECORDING 1
            device: mpu6050 on iio:device0
            identity: iio mpu6050 at platform/x/1-0068
            rate_hz: 200.0
            accel_scale: 0.00059855
            gyro_scale: 0.000133158
            mount_matrix: 0, 1, 0; -1, 0, 0; 0, 0, 1


            """)
    }

    @Test("CSV rows read back exactly; empty gyroscope fields mean an accelerometer-only sample; CRLF and a BOM are fine")
    func csv() throws {
        let list = samples()
        let text = SampleCSV.header + "\r\n" + list.map(SampleCSV.row).joined(separator: "\r\n") + "\r\n\r\n"
        let read = try Recording.parse([0xEF, 0xBB, 0xBF] + Array(text.utf8), name: "phone.csv")
        #expect(read.samples == list)
        #expect(read.header.device == "phone.csv" && read.header.hasGyroscope)
        #expect(abs(read.header.rate - 200) < 1e-9)
        let accelOnly = try Recording.parse(Array("t_ns,ax,ay,az,gx,gy,gz\n5,0,0,9.8,,,\n10,0,0,9.8,,,\n".utf8), name: "a")
        #expect(accelOnly.samples.allSatisfy { $0.fields == .acceleration } && !accelOnly.header.hasGyroscope)
    }

    @Test("a malformed CSV names the line, the field and what was expected", arguments: [
        ("t_ns,ax,ay\n1,2,3\n", "line 1: the CSV header \"t_ns,ax,ay\" is not one this reads: t_ns,ax,ay,az,gx,gy,gz,mx,my,mz, t_ns,ax,ay,az,gx,gy,gz, t_ns,ax,ay,az, t_ns,ax,ay,az,mx,my,mz"),
        ("time,ax\n1,2\n", "line 1: expected \"TILTMAZE RECORDING 2\" (a TiltMaze recording) or a CSV header such as \"t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\""),
        ("t_ns,ax,ay,az,mx,my,mz\n1,0,0,9.8,0,x,0\n", "line 2: field 6 (my): expected a number in µT, found \"x\""),
        ("t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\n1,0,0,9.8,0,0,0,0,0,2e5\n", "line 2: a magnetic field no sensor gives"),
        ("t_ns,ax,ay,az,gx,gy,gz\n", "line 1: no samples after the header"),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,0,0\n", "line 2: expected 7 comma-separated fields (t_ns,ax,ay,az,gx,gy,gz), found 6"),
        ("t_ns,ax,ay,az,gx,gy,gz\n1.5,0,0,9.8,0,0,0\n", "line 2: field 1 (t_ns): expected whole nanoseconds, found \"1.5\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,0,0,0\n2,x,0,9.8,0,0,0\n", "line 3: field 2 (ax): expected a number in m/s², found \"x\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,,9.8,0,0,0\n", "line 2: field 3 (ay): expected a number in m/s², found \"\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,nan,0,0,0\n", "line 2: field 4 (az): expected a number in m/s², found \"nan\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,inf,0,0\n", "line 2: field 5 (gx): expected a number in rad/s, found \"inf\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,0,1e,0\n", "line 2: field 6 (gy): expected a number in rad/s, found \"1e\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,0,0,-\n", "line 2: field 7 (gz): expected a number in rad/s, found \"-\""),
        ("t_ns,ax,ay,az,gx,gy,gz\n1,,,,,,\n", "line 2: no acceleration, rotation rate or magnetic field"),
        ("t_ns,ax,ay,az,gx,gy,gz\n10,0,0,9.8,0,0,0\n9,0,0,9.8,0,0,0\n", "line 3: time runs backwards (t_ns 9 after 10)"),
        ("t_ns,ax,ay,az,gx,gy,gz\n10,0,0,9.8e9,0,0,0\n", "line 2: an acceleration no sensor gives"),
        ("t_ns,ax,ay,az,gx,gy,gz\n10,0,0,9.8,0,500,0\n", "line 2: a rotation rate no sensor gives"),
    ])
    func malformedCSV(text: String, expected: String) {
        let found = error(csv: text)?.description ?? "no error"
        #expect(found.hasPrefix(expected), "\(found)")
    }

    @Test("a malformed recording names the line of the header, or the byte offset of the sample")
    func malformedRecording() throws {
        let good = recordingBytes(samples(3))
        let headerSize = header.encoded.count
        func replacing(_ old: String, _ new: String) -> [UInt8] {
            Array(String(decoding: header.encoded, as: UTF8.self).replacingFirst(old, with: new).utf8)
        }
        #expect(error(replacing("RECORDING 1", "RECORDING 3"))?.description.hasPrefix("line 1: \"TILTMAZE RECORDING 3\": this TiltMaze reads versions 1 and 2") == true)
        #expect(error(replacing("rate_hz: 200.0", "rate_hz: fast"))?.description == "line 4: rate_hz: expected a positive number of samples per second, found \"fast\"")
        #expect(error(replacing("rate_hz: 200.0", "rate_hz: -5"))?.description.hasPrefix("line 4: rate_hz: expected a positive") == true)
        #expect(error(replacing("mount_matrix: 0, 1, 0", "mount_matrix: 0, 1"))?.description.hasPrefix("line 7: mount_matrix: expected three rows") == true)
        #expect(error(replacing("accel_scale: 0.00059855", "accel_scale: 0"))?.description.hasPrefix("line 5: accel_scale: expected m/s² per count") == true)
        #expect(error(replacing("gyro_scale: 0.000133158", "gyro_scale: lots"))?.description.hasPrefix("line 6: gyro_scale: expected rad/s per count") == true)
        #expect(error(replacing("device: mpu6050 on iio:device0\n", ""))?.description == "line 7: the header has no \"device:\" line")
        #expect(error(replacing("identity:", "identity"))?.description.hasPrefix("line 3: expected \"key: value\" in the header") == true)
        #expect(error(Array("TILTMAZE RECORDING 1\ndevice: x\n".utf8))?.description.hasPrefix("line 3: the header never ends") == true)
        // Unknown keys are a later version's: ignored.
        #expect(error(replacing("device:", "colour: blue\ndevice:")) == nil)

        // Samples: cut short, unknown field bits, time running backwards, a NaN.
        #expect(error(Array(good.dropLast(10)))?.description
                == "byte \(headerSize + 2 * 57): sample 3 is cut short (47 of 57 bytes): the recording was interrupted; the 2 samples before it are whole")
        var fields = good
        fields[headerSize + 57 + 8] = 0x80
        #expect(error(fields)?.description == "byte \(headerSize + 57): sample 2: unknown fields 128")
        var backwards = good
        backwards[headerSize + 2 * 57 + 3] = 0   // sample 3's time drops below sample 2's
        #expect(error(backwards)?.description.hasPrefix("byte \(headerSize + 2 * 57): sample 3: time runs backwards") == true)
        var notANumber = good
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { for (i, b) in $0.enumerated() { notANumber[headerSize + 9 + i] = b } }
        #expect(error(notANumber)?.description.hasPrefix("byte \(headerSize): sample 1: an acceleration no sensor gives") == true)
    }

    @Test("the fused rows: gravity opposite the reading at rest, user acceleration zero, a shake reported once with its axis")
    func processor() {
        var processor = MotionProcessor()
        var shakes: [Shake] = []
        for i in 0..<400 {
            let jolt = (200..<205).contains(i) ? Vector3(0, -2.5 * standardGravity, 0) : .zero
            let sample = MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: Vector3(0, 0, standardGravity) + jolt,
                                      rotationRate: .zero, fields: [.acceleration, .rotationRate])
            let (motion, shake) = processor.add(sample)
            if let shake { shakes.append(shake) }
            if i == 150 {
                #expect((motion.gravity - Vector3(0, 0, -standardGravity)).length < 1e-6)
                #expect(motion.userAcceleration.length < 1e-6)
                let line = MotionSampleText.jsonLine(sample, device: "d", motion: motion, shake: nil)
                #expect(line.contains("\"gravity\":[") && line.contains("\"attitude\":[1.0,") && !line.contains("shake"), "\(line)")
            }
        }
        #expect(shakes.count == 1)
        #expect(shakes.first?.axis == .y && shakes.first?.positive == false)
        // The push beyond gravity: 2.5 g, less the little the 25 ms jolt leans the averaged gravity.
        #expect(abs(abs(shakes[0].acceleration) / standardGravity - 2.5) < 0.05, "\(shakes[0])")
        let exact = Shake(axis: .y, positive: false, acceleration: -2.5 * standardGravity, timestamp: 0)
        let line = MotionSampleText.jsonLine(MotionSample(timestamp: 0, fields: .acceleration), device: "d",
                                             motion: FusedMotion(), shake: exact)
        #expect(line.hasSuffix(",\"shake\":{\"axis\":\"y\",\"sign\":\"-\",\"g\":2.5}}"), "\(line)")
    }

    @Test("accelerometer only: gravity is the low-passed reading, and the attitude follows it")
    func accelerometerOnly() {
        var processor = MotionProcessor()
        let g = TiltBoard.gravity(roll: 0.2, pitch: 0)
        var last = FusedMotion()
        for i in 0..<400 {
            last = processor.add(MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: .zero - g, fields: .acceleration)).motion
        }
        #expect((last.gravity - g).length < 1e-6)
        #expect((last.attitude.rotate(.zero - g / g.length) - Vector3(0, 0, 1)).length < 1e-6)
    }
}

extension String {
    func replacingFirst(_ old: String, with new: String) -> String {
        guard let r = range(of: old) else { return self }
        return replacingCharacters(in: r, with: new)
    }
}
