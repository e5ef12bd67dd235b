// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A line of fields made to fit a width (a terminal's), so that it never
/// wraps: each field comes in forms from the fullest to the shortest, all
/// fields take their next form together (a tier) until the line fits, and
/// if even the shortest forms do not fit, the fields that matter least are
/// left out, one at a time. Each scalar is taken as one cell.
public enum FittedLine {
    public struct Field: Sendable, Equatable {
        /// 0 matters most; the highest goes first.
        public var priority: Int
        /// The fullest form first; a field with fewer forms keeps its last.
        public var forms: [String]

        public init(priority: Int, _ forms: String...) {
            self.priority = priority
            self.forms = forms
        }
    }

    /// The fields' fullest forms apart by three spaces, shorter ones by two.
    public static func fit(_ fields: [Field], width: Int) -> String {
        guard width > 0, !fields.isEmpty else { return "" }
        let tiers = fields.map(\.forms.count).max() ?? 1
        func line(_ fields: [Field], tier: Int) -> String {
            fields.map { $0.forms[min(tier, $0.forms.count - 1)] }.joined(separator: tier == 0 ? "   " : "  ")
        }
        for tier in 0 ..< tiers {
            let text = line(fields, tier: tier)
            if text.unicodeScalars.count <= width { return text }
        }
        var kept = fields
        var text = line(kept, tier: tiers - 1)
        while kept.count > 1, text.unicodeScalars.count > width {
            // The last of those that matter least.
            let least = kept.map(\.priority).max()!
            kept.remove(at: kept.lastIndex { $0.priority == least }!)
            text = line(kept, tier: tiers - 1)
        }
        guard text.unicodeScalars.count > width else { return text }
        let scalars = Array(text.unicodeScalars)
        return String(String.UnicodeScalarView(scalars[0 ..< width - 1])) + "\u{2026}"
    }
}
