// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
/// Picking a sampling rate from what a driver offers.
///
/// Drivers list their rates in `sampling_frequency_available` (or
/// `in_accel_sampling_frequency_available`) either as a list (`"12.5 26 52
/// 104 208 416"`) or as an IIO range (`"[4 1 1000]"`: min, step, max).
public enum SamplingRateChoice {
    /// What the driver offers.
    public enum Offer: Equatable, Sendable {
        case list([Double])
        case range(min: Double, step: Double, max: Double)
    }

    /// Parses the `_available` text; nil when it is neither form.
    public static func parse(_ text: String) -> Offer? {
        let trimmed = text.trimmingCharacters(in: " \t\n")
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            let parts = trimmed.dropFirst().dropLast().split(separator: " ").compactMap { Double($0) }
            guard parts.count == 3, parts[0] > 0, parts[1] >= 0, parts[2] >= parts[0] else { return nil }
            return .range(min: parts[0], step: parts[1], max: parts[2])
        }
        let values = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let rates = values.compactMap { Double($0) }.filter { $0 > 0 && $0.isFinite }
        guard !rates.isEmpty, rates.count == values.count else { return nil }
        return .list(rates.sorted())
    }

    /// The slowest offered rate at or above `wanted` (so the physics never
    /// waits for data), or the fastest there is when none reaches it.
    public static func choose(_ wanted: Double, from offer: Offer) -> Double {
        switch offer {
        case .list(let rates):
            return rates.first { $0 >= wanted } ?? rates.last!
        case .range(let min, let step, let max):
            if wanted <= min { return min }
            if wanted >= max { return max }
            guard step > 0 else { return wanted }
            let steps = ((wanted - min) / step).rounded(.up)
            return Swift.min(max, min + steps * step)
        }
    }
}
