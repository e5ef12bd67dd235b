// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices
import I2C

@Suite("LSM9DS1: the Sense HAT's IMU against its datasheet")
struct LSM9DS1Tests {
    /// Six bytes of three little-endian int16 axes, as the output registers hold them.
    func registers(_ x: Int16, _ y: Int16, _ z: Int16) -> [UInt8] {
        [x, y, z].flatMap { v in [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
    }

    func sample(gyro: [UInt8], accel: [UInt8], mount: MountMatrix) -> MotionSample {
        gyro.withUnsafeBytes { g in accel.withUnsafeBytes { a in LSM9DS1.sample(gyro: g, accel: a, timestamp: 7, mount: mount) } }
    }

    @Test("the rate is the slowest of the chip's at or above the one asked for, else its fastest")
    func rateChoice() {
        #expect(LSM9DS1.outputRate(for: 200).hertz == 238)
        #expect(LSM9DS1.outputRate(for: 119).hertz == 119)
        #expect(LSM9DS1.outputRate(for: 10).hertz == 14.9)
        #expect(LSM9DS1.outputRate(for: 5000).hertz == 952)
        #expect(LSM9DS1.outputRates.map(\.code) == [1, 2, 3, 4, 5, 6])
    }

    @Test("start: BDU and auto-increment, all axes, ±8 g, then the gyroscope's rate and ±500 °/s last")
    func startWrites() {
        let writes = LSM9DS1.startWrites(rate: LSM9DS1.outputRate(for: 200))
        #expect(writes.map(\.register) == [0x22, 0x1e, 0x1f, 0x20, 0x10])
        // CTRL_REG8: BDU (bit 6), IF_ADD_INC (bit 2). CTRL_REG4 / CTRL_REG5_XL: the three axes (bits 5:3).
        #expect(writes.map(\.value) == [0b0100_0100, 0b0011_1000, 0b0011_1000,
                                        // CTRL_REG6_XL: ODR 100 (238 Hz), FS_XL 11 (±8 g). CTRL_REG1_G: ODR_G 100, FS_G 01 (±500 °/s).
                                        0b1001_1000, 0b1000_1000])
    }

    @Test("counts become m/s² at 0.244 mg and rad/s at 17.5 m°/s, signed, in the chip's frame")
    func conversion() {
        let s = sample(gyro: registers(1000, -400, 2000), accel: registers(0, -1, 4098), mount: .identity)
        #expect(s.fields == [.acceleration, .rotationRate])
        #expect(s.timestamp == 7)
        #expect(abs(s.acceleration.z - 4098 * 0.000244 * 9.80665) < 1e-12)
        #expect(abs(s.acceleration.y + 0.000244 * 9.80665) < 1e-15)
        #expect(abs(s.rotationRate.x - 17.5 * .pi / 180) < 1e-12)
        #expect(abs(s.rotationRate.y + 7 * .pi / 180) < 1e-12)
        #expect(abs(s.rotationRate.z - 35 * .pi / 180) < 1e-12)
        // The extremes of a register: ±32768 counts is ±8 g.
        let full = sample(gyro: registers(.min, .max, 0), accel: registers(.min, .max, 0), mount: .identity)
        #expect(abs(full.acceleration.x / 9.80665 + 7.995) < 0.001)
        #expect(abs(full.rotationRate.y * 180 / .pi - 573.4) < 0.1)
    }

    @Test("the magnetometer: 0.14 mgauss a count at ±4 gauss (0.014 µT), its x reversed against the accelerometer's, rates up to 80 Hz")
    func magnetometer() {
        #expect(LSM9DS1.magnetometerRate(for: 238).hertz == 80 && LSM9DS1.magnetometerRate(for: 238).code == 7)
        #expect(LSM9DS1.magnetometerRate(for: 14.9).hertz == 20)
        let writes = LSM9DS1.magnetometerStartWrites(rate: LSM9DS1.magnetometerRate(for: 238))
        // CTRL_REG5_M BDU; CTRL_REG4_M OMZ 11; CTRL_REG2_M FS 00; CTRL_REG1_M OM 11, DO 111; CTRL_REG3_M continuous, last.
        #expect(writes.map(\.register) == [0x24, 0x23, 0x21, 0x20, 0x22])
        #expect(writes.map(\.value) == [0x40, 0x0c, 0x00, 0b0111_1100, 0x00])
        let bytes = registers(1000, -2000, 3000)
        let chipFrame = bytes.withUnsafeBytes { LSM9DS1.magneticField($0, mount: .identity) }
        #expect(abs(chipFrame.x + 1000 * 0.014) < 1e-12 && abs(chipFrame.y + 2000 * 0.014) < 1e-12 && abs(chipFrame.z - 3000 * 0.014) < 1e-12)
        // The full range is a little over ±4 gauss: 32767 counts, 458.7 µT.
        let full = registers(.max, 0, 0).withUnsafeBytes { LSM9DS1.magneticField($0, mount: .identity) }
        #expect(abs(full.x + 458.7) < 0.1)
        // On the HAT the half turn follows: the chip's magnetometer x becomes the board's x again.
        let hat = bytes.withUnsafeBytes { LSM9DS1.magneticField($0, mount: LSM9DS1.senseHatMount) }
        #expect(abs(hat.x - 1000 * 0.014) < 1e-12 && abs(hat.y - 2000 * 0.014) < 1e-12)
    }

    @Test("on the Sense HAT the chip sits half a turn round: its +x is the board's left, its +y the bottom, z out of the LEDs")
    func senseHatMounting() {
        let hat: MountMatrix = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil, isSenseHat: true).mount
        #expect(hat == LSM9DS1.senseHatMount)
        // A rotation, not a reflection: the same turn serves the gyroscope.
        let r = hat.rows
        let det = r.0.x * (r.1.y * r.2.z - r.1.z * r.2.y) - r.0.y * (r.1.x * r.2.z - r.1.z * r.2.x) + r.0.z * (r.1.x * r.2.y - r.1.y * r.2.x)
        #expect(det == 1)
        // Flat, LEDs up: +1 g on z. Right edge down by 30°: the chip reads +0.5 g on its x, the board -0.5 g on x.
        let flat = sample(gyro: registers(0, 0, 0), accel: registers(0, 0, 4098), mount: hat)
        #expect(flat.acceleration.z > 9.8 && flat.acceleration.x == 0 && flat.acceleration.y == 0)
        let tilted = sample(gyro: registers(0, 0, 0), accel: registers(2049, 0, 3549), mount: hat)
        #expect(tilted.acceleration.x < -4.9)
        // Turning about the board's z (out of the LEDs) is turning about the chip's z.
        let turning = sample(gyro: registers(0, 0, 1000), accel: registers(0, 0, 4098), mount: hat)
        #expect(turning.rotationRate.z > 0 && turning.rotationRate.x == 0)
        // A breakout at the other address is printed with the chip's own axes.
        #expect(I2CIMU(adapter: I2CAdapter(number: 1, name: "x"), address: 0x6b, magnetometerAddress: nil).mount == .identity)
    }
}
