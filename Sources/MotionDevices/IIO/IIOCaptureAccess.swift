// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemPackage
import SystemCalls
import IIO

/// What capturing from an IIO device asks of this user: read/write on its
/// node and on every sysfs file the capture writes. `play` skips an IMU that
/// fails this, and `devices` and `doctor` list each file refused.
public enum IIOCaptureAccess {
    /// The sysfs files a capture on `device` writes, those it has: ours
    /// (timestamp clock, rate or per-type rates, trigger; see `IIOCaptureSetup`) and libiio's
    /// (buffer length and enable, every scan element's enable).
    public static func writtenFiles(of device: IIODevice) -> [String] {
        let names = Set(device.attributeNames)
        var files = ["current_timestamp_clock"].filter(names.contains).map(device.attributePath)
        files += IIOSamplingRate.find(device).map(\.path)
        files += ["trigger/current_trigger"].map(device.attributePath)
        // libiio lists no `enable` or `length` among buffer attributes (it
        // manages them itself), so name the files it writes outright.
        files += ["enable", "length", "watermark"].map(device.bufferAttributePath)
        files += device.channels.filter { $0.isScanElement && !$0.isOutput }.map(\.enableAttributePath)
        return files.filter { FilePath($0).isAccessible(.exists) }
    }

    /// The node and each written file, checked for read/write, node first.
    public static func check(_ device: IIODevice) -> [DeviceAccess] {
        ([device.devicePath] + writtenFiles(of: device)).map { DeviceAccess.check($0, need: .readWrite) }
    }

    /// What polling a device without a buffer reads: each accel and
    /// anglvel channel's `raw` file (setting its rate is tried, not needed).
    public static func checkPolling(_ device: IIODevice) -> [DeviceAccess] {
        device.motionChannels.filter { $0.attributeNames.contains("raw") }
            .map { DeviceAccess.check($0.attributePath("raw"), need: .read) }
    }
}
