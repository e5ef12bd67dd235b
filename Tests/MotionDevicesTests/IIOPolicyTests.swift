// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices

@Suite("IIO policy: rates, triggers, grouping")
struct IIOPolicyTests {
    @Test("rate lists and ranges parse; garbage does not")
    func parseRates() {
        #expect(SamplingRateChoice.parse("12.5 26 52 104 208 416\n") == .list([12.5, 26, 52, 104, 208, 416]))
        #expect(SamplingRateChoice.parse("1000 4 500\n") == .list([4, 500, 1000]))
        #expect(SamplingRateChoice.parse("[4 1 1000]\n") == .range(min: 4, step: 1, max: 1000))
        #expect(SamplingRateChoice.parse("") == nil)
        #expect(SamplingRateChoice.parse("fast slow") == nil)
        #expect(SamplingRateChoice.parse("100 fast") == nil)
        #expect(SamplingRateChoice.parse("[4 1]") == nil)
    }

    @Test("the slowest rate at or above the wish is chosen, else the fastest")
    func chooseRate() {
        let lsm = SamplingRateChoice.Offer.list([12.5, 26, 52, 104, 208, 416])
        #expect(SamplingRateChoice.choose(200, from: lsm) == 208)
        #expect(SamplingRateChoice.choose(104, from: lsm) == 104)
        #expect(SamplingRateChoice.choose(1000, from: lsm) == 416)
        #expect(SamplingRateChoice.choose(1, from: lsm) == 12.5)
        let mpu = SamplingRateChoice.Offer.range(min: 4, step: 1, max: 1000)
        #expect(SamplingRateChoice.choose(200, from: mpu) == 200)
        #expect(SamplingRateChoice.choose(200.5, from: mpu) == 201)
        #expect(SamplingRateChoice.choose(2000, from: mpu) == 1000)
        #expect(SamplingRateChoice.choose(1, from: mpu) == 4)
    }

    @Test("the device's own data-ready trigger comes first")
    func dataReadyFirst() {
        #expect(TriggerChoice.choose(deviceName: "mpu6050", deviceIndex: 0, acceptsTrigger: true,
                                     triggerNames: ["tiltmaze", "mpu6050-dev0"], canCreateHrtimer: true) == .dataReady("mpu6050-dev0"))
    }

    @Test("without one: an existing hrtimer trigger, else a new one, else nothing possible")
    func hrtimerFallback() {
        #expect(TriggerChoice.choose(deviceName: "bmi270", deviceIndex: 1, acceptsTrigger: true,
                                     triggerNames: ["mpu6050-dev0", "tiltmaze"], canCreateHrtimer: false) == .existingHrtimer("tiltmaze"))
        #expect(TriggerChoice.choose(deviceName: "bmi270", deviceIndex: 1, acceptsTrigger: true,
                                     triggerNames: [], canCreateHrtimer: true) == .createHrtimer("tiltmaze"))
        #expect(TriggerChoice.choose(deviceName: "bmi270", deviceIndex: 1, acceptsTrigger: true,
                                     triggerNames: [], canCreateHrtimer: false) == nil)
    }

    @Test("a FIFO driver without a trigger attribute runs without a trigger")
    func fifoDriver() {
        #expect(TriggerChoice.choose(deviceName: "lsm6ds3_accel", deviceIndex: 0, acceptsTrigger: false,
                                     triggerNames: ["tiltmaze"], canCreateHrtimer: true) == TriggerChoice.none)
    }

    @Test("a split chip's _accel and _gyro devices make one IMU; other devices stand alone")
    func grouping() {
        typealias M = IMUGrouping.Member
        let devices = [
            M(id: "iio:device0", name: "lsm6ds3_gyro", hasAccel: false, hasGyro: true),
            M(id: "iio:device1", name: "mpu6050", hasAccel: true, hasGyro: true),
            M(id: "iio:device2", name: "lsm6ds3_accel", hasAccel: true, hasGyro: false),
            M(id: "iio:device3", name: "bmp280", hasAccel: false, hasGyro: false),
            M(id: "iio:device4", name: "lis3dh_accel", hasAccel: true, hasGyro: false),
        ]
        let imus = IMUGrouping.group(devices)
        #expect(imus.map(\.name) == ["lsm6ds3", "mpu6050", "lis3dh_accel"])
        #expect(imus[0].members.map(\.id) == ["iio:device2", "iio:device0"])
        #expect(imus[1].members.count == 1)
        #expect(imus[2].members.map(\.id) == ["iio:device4"])
    }

    @Test("a HID sensor hub's accel_3d and gyro_3d make one IMU; a lone accel_3d stands alone")
    func sensorHub() {
        typealias M = IMUGrouping.Member
        let hub = IMUGrouping.group([
            M(id: "iio:device0", name: "gyro_3d", hasAccel: false, hasGyro: true),
            M(id: "iio:device1", name: "accel_3d", hasAccel: true, hasGyro: false),
        ])
        #expect(hub.map(\.name) == ["hid-sensor-hub"])
        #expect(hub.first?.members.map(\.id) == ["iio:device1", "iio:device0"], "accelerometer first")
        let lone = IMUGrouping.group([M(id: "iio:device0", name: "accel_3d", hasAccel: true, hasGyro: false)])
        #expect(lone.map(\.name) == ["accel_3d"])
    }

    @Test("magnetometer units: IIO's gauss are 100 µT, except the bno055 driver's 1/160, which counts tenths of a µT")
    func magnetometerUnits() {
        #expect(IIOMagnetometer.microteslaPerUnit(deviceName: "mpu9250", scale: 0.001508) == 100)
        #expect(IIOMagnetometer.microteslaPerUnit(deviceName: "bno055", scale: 1.0 / 160) == 10)
        #expect(IIOMagnetometer.microteslaPerUnit(deviceName: "bno055", scale: 0.006250000) == 10)
        // A fixed driver would say 1/1600 gauss, 1/16 µT: the ABI's factor again.
        #expect(IIOMagnetometer.microteslaPerUnit(deviceName: "bno055", scale: 1.0 / 1600) == 100)
        // Either way a BNO055 count is 1/16 µT, as its data sheet says.
        #expect(abs(1.0 / 160 * IIOMagnetometer.microteslaPerUnit(deviceName: "bno055", scale: 1.0 / 160) - 1.0 / 16) < 1e-15)
    }

    @Test("a repeated magnetometer reading is not new; a changed one is")
    func repeatedReadings() {
        var filter = RepeatedReadingFilter()
        let verdicts = [Vector3(1, 2, 3), Vector3(1, 2, 3), Vector3(1, 2, 3.5), Vector3(1, 2, 3)].map { filter.isNew($0) }
        #expect(verdicts == [true, false, true, true])
    }
}
