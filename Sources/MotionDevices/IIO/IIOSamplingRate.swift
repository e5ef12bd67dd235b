// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO

/// Where a driver keeps a sampling rate, what it offers and what it is now.
///
/// Most drivers have one rate for the device (`sampling_frequency`:
/// inv_mpu6050, st_lsm6dsx); bmi160 has one per channel type
/// (`in_accel_sampling_frequency`, `in_anglvel_sampling_frequency`), which
/// libiio shows as the `sampling_frequency` attribute of each such channel.
/// Formats differ too: "10 20 50" (inv_mpu6050), "12.500 26.000"
/// (st_lsm6dsx), "0.78125 1.5625 …" (bmi160), or a range "[min step max]".
public struct IIOSamplingRate: Sendable, CustomStringConvertible {
    /// The channel type the rate belongs to ("accel"), nil for the whole device.
    public let type: String?
    private let device: IIODevice
    private let channel: IIOChannel?

    /// The device's rates: its own, else one per motion channel type that has one.
    public static func find(_ device: IIODevice) -> [IIOSamplingRate] {
        if Set(device.attributeNames).contains("sampling_frequency") {
            return [IIOSamplingRate(type: nil, device: device, channel: nil)]
        }
        var rates: [IIOSamplingRate] = []
        for type in ["accel", "anglvel"] {
            if let channel = device.motionChannels.first(where: { $0.id.hasPrefix(type + "_") && $0.attributeNames.contains("sampling_frequency") }) {
                rates.append(IIOSamplingRate(type: type, device: device, channel: channel))
            }
        }
        return rates
    }

    private init(type: String?, device: IIODevice, channel: IIOChannel?) {
        self.type = type
        self.device = device
        self.channel = channel
    }

    /// The rates the driver offers (read when asked: the access check needs only `path`).
    public var offer: SamplingRateChoice.Offer? {
        (try? Self.read("sampling_frequency_available", device, channel)).flatMap(SamplingRateChoice.parse)
    }

    /// The rate now, as the driver reads it.
    public var current: Double? { (try? read()).flatMap { Double(attributeText: $0) } }

    /// An attribute of the channel type's if there is one, else of the device.
    private static func read(_ name: String, _ device: IIODevice, _ channel: IIOChannel?) throws(IIOError) -> String {
        if let channel { return try channel.readAttribute(name) }
        return try device.readAttribute(name)
    }

    /// The sysfs file capture writes.
    public var path: String {
        channel.map { $0.attributePath("sampling_frequency") } ?? device.attributePath("sampling_frequency")
    }

    /// The file's text now (to put it back later).
    func read() throws(IIOError) -> String { try Self.read("sampling_frequency", device, channel) }

    func write(_ text: String) throws(IIOError) {
        if let channel { try channel.writeAttribute("sampling_frequency", text) } else { try device.writeAttribute("sampling_frequency", text) }
    }


    /// "accel 0.78125 1.5625 … 1600 Hz (now 100)": the offer in plain numbers.
    public var description: String {
        var text = type.map { $0 + " " } ?? ""
        switch offer {
        case .list(let rates)?: text += rates.map(Self.number).joined(separator: " ") + " Hz"
        case .range(let min, let step, let max)?: text += "\(Self.number(min)) to \(Self.number(max)) Hz in steps of \(Self.number(step))"
        case nil: text += "not listed"
        }
        if let current { text += " (now \(Self.number(current)))" }
        return text
    }

    /// 50 → "50", 12.5 → "12.5": no trailing zeros.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
