// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// A marble on the Sense HAT's 8×8 LEDs: tilt the board and it rolls, and
// bounces off the edges. Without the HAT it rolls in the terminal. Sensor
// as the spirit level takes it: sensehat-marble [sim | replay:FILE | …].
import LinuxMotion
#if canImport(Glibc)
import Glibc
#endif

guard let request = SensorRequest(argument: CommandLine.arguments.dropFirst().first ?? "auto") else {
    print("usage: sensehat-marble [auto | sim | iio:NAME | evdev:PATH | i2c:BUS | replay:FILE]")
    exit(2)
}

/// The Sense HAT's LED matrix is a framebuffer named "RPi-Sense FB": 8×8 pixels of RGB565.
func senseHatMatrix() -> Int32? {
    for n in 0 ..< 8 {
        guard let file = fopen("/sys/class/graphics/fb\(n)/name", "r") else { continue }
        var name = [CChar](repeating: 0, count: 64)
        let read = fgets(&name, 64, file) != nil
        let found = read && String(decoding: name.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
            .hasPrefix("RPi-Sense FB")
        fclose(file)
        if found { return open("/dev/fb\(n)", O_WRONLY) }
    }
    return nil
}

let matrix = senseHatMatrix()
print(matrix == nil ? "no Sense HAT LED matrix: rolling in the terminal" : "rolling on the Sense HAT")
var (x, y, vx, vy) = (3.5, 3.5, 0.0, 0.0)   // LEDs, LEDs per second
var last: Int64?, shown = (-1, -1)
let manager = MotionManager(source: request, rate: 100)
do {
    for try await motion in try manager.deviceMotionUpdates() {
        let dt = last.map { Double(motion.timestamp - $0) / 1e9 } ?? 0
        last = motion.timestamp
        // Gravity along the board rolls the marble (y points to the top edge: row 0).
        (vx, vy) = (vx + motion.gravity.x * 3 * dt, vy - motion.gravity.y * 3 * dt)
        (x, y) = (x + vx * dt, y + vy * dt)
        if x < 0 || x > 7 { x = min(max(x, 0), 7); vx = -vx * 0.5 }
        if y < 0 || y > 7 { y = min(max(y, 0), 7); vy = -vy * 0.5 }
        let cell = (Int(x.rounded()), Int(y.rounded()))
        guard cell != shown else { continue }
        shown = cell
        var pixels = [UInt16](repeating: 0, count: 64)
        pixels[cell.1 * 8 + cell.0] = 0xFFE0   // yellow
        if let matrix {
            _ = pixels.withUnsafeBytes { pwrite(matrix, $0.baseAddress, $0.count, 0) }
        } else {
            print((0 ..< 8).map { row in (0 ..< 8).map { pixels[row * 8 + $0] != 0 ? "●" : "·" }.joined(separator: " ") }
                .joined(separator: "\n") + "\n")
        }
    }
} catch {
    print("sensehat-marble: \(error)")
    exit(1)
}
