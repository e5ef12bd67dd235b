// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Run-time text (a level title, a sensor name) made safe for a cell grid
/// that assumes one cell per scalar.
enum SingleWidthText {
    /// The text as scalars a terminal shows one cell wide: printable ASCII,
    /// Latin-1 and Latin Extended letters, general punctuation such as `·`
    /// and `…`, box drawing and block elements; `?` for the rest (wide CJK,
    /// emoji, combining marks, controls), so nothing can push the layout out
    /// of line. Allocated once, at init; the caller deallocates.
    static func scalars(_ text: String) -> UnsafeMutableBufferPointer<Unicode.Scalar> {
        let scalars = text.unicodeScalars.map { isSingleWidth($0) ? $0 : "?" }
        let buffer = UnsafeMutableBufferPointer<Unicode.Scalar>.allocate(capacity: scalars.count)
        _ = buffer.initialize(from: scalars)
        return buffer
    }

    /// Whether `scalar` is one of those (the menus' ▶ too).
    static func isSingleWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x20 ..< 0x7F).contains(v) || (0xA0 ..< 0x300).contains(v)
            || (0x2010 ..< 0x2028).contains(v) || (0x2500 ..< 0x25A0).contains(v) || v == 0x25B6
    }
}
