// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The text forms of a sample: the JSON line `tiltmaze monitor --json`
/// prints (and a recording would store), and the fixed-width columns of the
/// live monitor.
public enum MotionSampleText {}

extension MotionSampleText {
    /// One sample as a line of JSON: `{"t_ns":…,"accel":[x,y,z],"gyro":[x,y,z]|null,"device":"…"}`,
    /// with `"magn":[x,y,z]` (µT) before `"device"` on the samples that
    /// carry a new magnetometer reading. Numbers are printed in Swift's
    /// shortest exact form, so a reader gets back the very `Double` the
    /// sensor produced.
    public static func jsonLine(_ sample: MotionSample, device: String) -> String {
        func vector(_ v: Vector3, present: Bool) -> String {
            present ? "[\(number(v.x)),\(number(v.y)),\(number(v.z))]" : "null"
        }
        return "{\"t_ns\":\(sample.timestamp),\"accel\":\(vector(sample.acceleration, present: sample.hasAcceleration)),"
            + "\"gyro\":\(vector(sample.rotationRate, present: sample.hasRotationRate)),"
            + (sample.hasMagneticField ? "\"magn\":\(vector(sample.magneticField, present: true))," : "")
            + "\"device\":\(jsonString(device))}"
    }

    /// The sample's line with the fused motion added:
    /// `…,"gravity":[x,y,z],"attitude":[w,x,y,z],"user_accel":[x,y,z]|null,"rotation_rate":[x,y,z]|null`
    /// and, when one fired on this sample, `"shake":{"axis":"x","sign":"+","g":1.52}`.
    public static func jsonLine(_ sample: MotionSample, device: String, motion: FusedMotion, shake: Shake?) -> String {
        func vector(_ v: Vector3, present: Bool = true) -> String {
            present ? "[\(number(v.x)),\(number(v.y)),\(number(v.z))]" : "null"
        }
        var line = jsonLine(sample, device: device)
        line.removeLast()   // the closing brace
        let q = motion.attitude
        line += ",\"gravity\":\(vector(motion.gravity)),\"attitude\":[\(number(q.w)),\(number(q.x)),\(number(q.y)),\(number(q.z))],"
            + "\"user_accel\":\(vector(motion.userAcceleration, present: sample.hasAcceleration)),"
            + "\"rotation_rate\":\(vector(motion.rotationRate, present: sample.hasRotationRate))"
        if let shake {
            let axis = ["x", "y", "z"][shake.axis.rawValue]
            line += ",\"shake\":{\"axis\":\"\(axis)\",\"sign\":\"\(shake.positive ? "+" : "-")\",\"g\":\(number(abs(shake.acceleration) / standardGravity))}"
        }
        return line + "}"
    }

    /// The line with the reference frame's part added: `…,"reference":"magnetic-north","heading":h,
    /// "magnetic_field":{"field":[x,y,z],"accuracy":"uncalibrated"}|null}`, the
    /// attitude being in `frame` already; heading −1 where there is none (as CoreMotion gives it).
    public static func jsonLine(_ sample: MotionSample, device: String, motion: FusedMotion, shake: Shake?,
                                frame: AttitudeReferenceFrame) -> String {
        var line = jsonLine(sample, device: device, motion: motion, shake: shake)
        line.removeLast()
        line += ",\"reference\":\"\(frame.argument)\",\"heading\":\(number(motion.heading ?? -1)),\"magnetic_field\":"
        if let field = motion.magneticField {
            line += "{\"field\":[\(number(field.x)),\(number(field.y)),\(number(field.z))],\"accuracy\":\"\(motion.magneticAccuracy.name)\"}"
        } else {
            line += "null"
        }
        return line + "}"
    }

    /// JSON has no NaN or infinity: a value that is not finite becomes null.
    private static func number(_ d: Double) -> String { d.isFinite ? "\(d)" : "null" }

    /// A JSON string literal with the characters JSON requires escaped.
    public static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `v` rounded to `digits` decimals, "-" only when it does not round to zero: "17.2", "-0.05".
    public static func decimal(_ v: Double, digits: Int = 1) -> String {
        guard v.isFinite else { return "\(v)" }
        let scale = Int(pow10(digits))
        let n = Int((abs(v) * Double(scale)).rounded())
        let sign = v < 0 && n != 0 ? "-" : ""
        guard digits > 0 else { return sign + "\(n)" }
        let fraction = String(n % scale)
        return sign + "\(n / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `+0.123 -9.807 +0.000` with a fixed width, for the live monitor.
    public static func fixed(_ v: Vector3, decimals: Int = 3) -> String {
        [v.x, v.y, v.z].map { value in
            let scaled = (abs(value) * pow10(decimals)).rounded()
            let whole = Int(scaled / pow10(decimals))
            var fraction = String(Int(scaled.truncatingRemainder(dividingBy: pow10(decimals))))
            fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
            let text = "\(value < 0 && scaled != 0 ? "-" : "+")\(whole).\(fraction)"
            return rightAligned(text, width: 8)
        }.joined(separator: " ")
    }

    /// `text` padded on the left to `width` characters, as printf's `%8s` would.
    public static func rightAligned(_ text: String, width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func pow10(_ n: Int) -> Double {
        var r = 1.0
        for _ in 0..<n { r *= 10 }
        return r
    }
}
