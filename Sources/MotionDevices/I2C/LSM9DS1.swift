// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// What TiltMaze uses of ST's LSM9DS1 (accelerometer, gyroscope and
/// magnetometer in one package; datasheet DocID025715), the IMU of the
/// Raspberry Pi Sense HAT. The registers, values and sensitivities below are
/// the datasheet's (sections 7 and 8, table 3).
///
/// The chip answers at two I²C addresses: accelerometer and gyroscope at
/// 0x6a (0x6b with its SDO_A/G pin high, as on SparkFun's breakout),
/// magnetometer at 0x1c (0x1e).
public enum LSM9DS1 {
    /// Where the accelerometer and gyroscope answer: the Sense HAT's address first.
    public static let accelGyroAddresses: [UInt8] = [0x6a, 0x6b]
    /// Where the magnetometer answers, in the same order.
    public static let magnetometerAddresses: [UInt8] = [0x1c, 0x1e]
    /// WHO_AM_I of the accelerometer and gyroscope (register 0x0f).
    public static let accelGyroIdentity: UInt8 = 0x68
    /// WHO_AM_I_M of the magnetometer (register 0x0f of its address).
    public static let magnetometerIdentity: UInt8 = 0x3d

    /// Registers of the accelerometer and gyroscope address.
    public enum Register {
        public static let whoAmI: UInt8 = 0x0f
        /// ODR_G[7:5], FS_G[4:3], BW_G[1:0].
        public static let ctrl1G: UInt8 = 0x10
        /// XLDA bit 0, GDA bit 1: a new accelerometer / gyroscope set is ready.
        public static let status: UInt8 = 0x17
        /// OUT_X_L_G … OUT_Z_H_G: three little-endian int16.
        public static let gyroOutput: UInt8 = 0x18
        /// Zen_G, Yen_G, Xen_G (bits 5:3): the gyroscope's axes on.
        public static let ctrl4: UInt8 = 0x1e
        /// Zen_XL, Yen_XL, Xen_XL (bits 5:3): the accelerometer's axes on.
        public static let ctrl5XL: UInt8 = 0x1f
        /// ODR_XL[7:5], FS_XL[4:3].
        public static let ctrl6XL: UInt8 = 0x20
        /// BDU bit 6, IF_ADD_INC bit 2.
        public static let ctrl8: UInt8 = 0x22
        /// OUT_X_L_XL … OUT_Z_H_XL: three little-endian int16.
        public static let accelOutput: UInt8 = 0x28
    }

    /// Registers of the magnetometer's address.
    public enum MagnetometerRegister {
        /// TEMP_COMP bit 7, OM[6:5] (x and y performance), DO[4:2] (rate).
        public static let ctrl1: UInt8 = 0x20
        /// FS[6:5]: the range.
        public static let ctrl2: UInt8 = 0x21
        /// MD[1:0]: 00 continuous conversion, 11 power-down (after reset).
        public static let ctrl3: UInt8 = 0x22
        /// OMZ[3:2]: z's performance.
        public static let ctrl4: UInt8 = 0x23
        /// BDU bit 6.
        public static let ctrl5: UInt8 = 0x24
        /// ZYXDA bit 3: a new set is ready.
        public static let status: UInt8 = 0x27
        /// OUT_X_L_M … OUT_Z_H_M: three little-endian int16.
        public static let output: UInt8 = 0x28
    }

    /// STATUS_REG_M's ZYXDA.
    public static let magnetometerReady: UInt8 = 1 << 3
    /// Set in a register number, SUB(7), it makes the magnetometer step
    /// through registers in a multi-byte read; without it every byte would
    /// come from the first register (the accelerometer and gyroscope's
    /// address steps by CTRL_REG8's IF_ADD_INC instead).
    public static let magnetometerAutoIncrement: UInt8 = 0x80

    /// The magnetometer's output data rates (DO codes 0…7).
    public static let magnetometerRates = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80].enumerated().map {
        OutputRate(code: UInt8($0.offset), hertz: $0.element)
    }

    /// The slowest magnetometer rate at or above the sample rate, else 80 Hz,
    /// its fastest in ultra-high-performance mode: a field changes slowly,
    /// and each reading costs two transfers.
    public static func magnetometerRate(for sampleRate: Double) -> OutputRate {
        magnetometerRates.first { $0.hertz >= sampleRate } ?? magnetometerRates[magnetometerRates.count - 1]
    }

    /// ±4 gauss (FS = 00): 0.14 mgauss per count. The Earth's field is under
    /// 0.7 gauss; a speaker magnet a few centimetres away stays within 4.
    public static let magnetometerRange: UInt8 = 0b00
    /// µT per count at ±4 gauss.
    public static let magnetometerScale = 0.14e-3 * microteslaPerGauss

    /// The register writes that start the magnetometer at `rate`, in order:
    /// block data update, ultra-high performance on z, then x and y, the
    /// range and rate, and continuous conversion last, which powers it up.
    public static func magnetometerStartWrites(rate: OutputRate) -> [(register: UInt8, value: UInt8)] {
        [(MagnetometerRegister.ctrl5, 0x40),
         (MagnetometerRegister.ctrl4, 0b11 << 2),
         (MagnetometerRegister.ctrl2, magnetometerRange << 5),
         (MagnetometerRegister.ctrl1, 0b11 << 5 | rate.code << 2),
         (MagnetometerRegister.ctrl3, 0x00)]
    }

    /// How the magnetometer's axes sit against the accelerometer and
    /// gyroscope's, as a mount matrix: its x points the other way, y and z
    /// agree. The data sheet's pin drawing shows the two sets of axes
    /// apart; independent drivers that fuse the chip's three sensors agree
    /// on this reading of it (S. J. Remington's LSM9DS1 AHRS, which negates
    /// the accelerometer and gyroscope's x to match the magnetometer, and
    /// others that negate the magnetometer's x). RTIMULib, whose LSM9DS1
    /// code treats the two alike, is the one that differs. Not yet
    /// confirmed on a board here.
    public static let magnetometerAxes = MountMatrix(Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// A magnetometer reading (OUT_*_M, six bytes) in the board's frame, µT.
    @inlinable
    public static func magneticField(_ bytes: UnsafeRawBufferPointer, mount: MountMatrix) -> Vector3 {
        mount.apply(magnetometerAxes.apply(axes(bytes) * magnetometerScale))
    }

    /// The STATUS_REG bits meaning "both sets are new".
    public static let bothReady: UInt8 = 0b11

    /// An output data rate of the accelerometer and gyroscope together (the
    /// gyroscope's ODR_G codes; with both on, the accelerometer runs at it).
    public struct OutputRate: Sendable, Equatable {
        public let code: UInt8
        public let hertz: Double
    }

    /// ODR_G 001…110.
    public static let outputRates = [OutputRate(code: 1, hertz: 14.9), OutputRate(code: 2, hertz: 59.5),
                                     OutputRate(code: 3, hertz: 119), OutputRate(code: 4, hertz: 238),
                                     OutputRate(code: 5, hertz: 476), OutputRate(code: 6, hertz: 952)]

    /// The slowest rate at or above `wanted`, else the fastest: as the IIO
    /// source picks among a driver's rates.
    public static func outputRate(for wanted: Double) -> OutputRate {
        outputRates.first { $0.hertz >= wanted } ?? outputRates[outputRates.count - 1]
    }

    /// ±8 g (FS_XL = 11): 0.244 mg per count. The range python-sense-hat
    /// (RTIMULib) sets too: a shake reaches 2–3 g, tilt needs far less
    /// resolution than this gives.
    public static let accelRange: UInt8 = 0b11
    /// m/s² per count at ±8 g.
    public static let accelScale = 0.244e-3 * standardGravity
    /// ±500 °/s (FS_G = 01): 17.5 m°/s per count, as RTIMULib sets it.
    public static let gyroRange: UInt8 = 0b01
    /// rad/s per count at ±500 °/s.
    public static let gyroScale = 17.5e-3 * Double.pi / 180

    /// The register writes that start both sensors at `rate`, in order:
    /// block data update (a reading's two bytes always from one sample) and
    /// register auto-increment (one transfer reads three axes) first, all
    /// axes on, then the accelerometer's range and the gyroscope's rate last,
    /// which powers the pair up.
    public static func startWrites(rate: OutputRate) -> [(register: UInt8, value: UInt8)] {
        [(Register.ctrl8, 0x44),
         (Register.ctrl4, 0x38),
         (Register.ctrl5XL, 0x38),
         (Register.ctrl6XL, rate.code << 5 | accelRange << 3),
         (Register.ctrl1G, rate.code << 5 | gyroRange << 3)]
    }

    /// The sample in the chip's frame read from OUT_*_G and OUT_*_XL (six
    /// bytes each), the accelerometer's calibration applied, turned into the board's frame by `mount`.
    @inlinable
    public static func sample(gyro: UnsafeRawBufferPointer, accel: UnsafeRawBufferPointer,
                              timestamp: Int64, mount: MountMatrix, accelerometer: AccelerometerCalibration = .none) -> MotionSample {
        MotionSample(timestamp: timestamp,
                     acceleration: mount.apply(accelerometer.apply(axes(accel) * accelScale)),
                     rotationRate: mount.apply(axes(gyro) * gyroScale),
                     fields: [.acceleration, .rotationRate])
    }

    @inlinable
    static func axes(_ bytes: UnsafeRawBufferPointer) -> Vector3 {
        func axis(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)) }
        return Vector3(axis(0), axis(2), axis(4))
    }

    /// How the LSM9DS1 sits on the Sense HAT, as a mount matrix from the
    /// chip's axes to the board's (x to the right of the LED matrix, y to
    /// its top, z out of it, the matrix upright as the HAT's own software
    /// draws it at rotation 0, the Pi's HDMI side down).
    ///
    /// The HAT's device tree declares no mount matrix, so this is derived
    /// from the software written for the board: RTIMULib, which
    /// python-sense-hat reads the chip through, negates the chip's x and y
    /// acceleration and keeps z (a half turn about z), and python-sense-hat
    /// then reads +1 g on z lying flat and +1 g on y standing on the HDMI
    /// edge with the picture upright. The gyroscope shares the
    /// accelerometer's axes on this chip, so it takes the same half turn.
    /// Not yet confirmed on a board here.
    public static let senseHatMount = MountMatrix(Vector3(-1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1))
}
