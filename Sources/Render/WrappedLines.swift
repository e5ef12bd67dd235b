// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Where a text breaks into lines of at most `width` cells: at the last
/// space that fits, or, for a word longer than a line (a path), in the
/// middle of it. The spaces at a break are left out. Allocates: call it when
/// the text or the width changes, not every frame.
enum WrappedLines {
    static func ranges(of text: UnsafeBufferPointer<Unicode.Scalar>, width: Int) -> [Range<Int>] {
        guard width > 0 else { return [] }
        var lines: [Range<Int>] = []
        var start = 0
        while true {
            while start < text.count, text[start] == " " { start += 1 }
            guard start < text.count else { break }
            if text.count - start <= width {
                lines.append(start ..< text.count)
                break
            }
            // A space just past the line's last cell ends a line that is exactly full.
            var cut = start + width
            while cut > start, text[cut] != " " { cut -= 1 }
            if cut == start { cut = start + width }
            var end = cut
            while end > start, text[end - 1] == " " { end -= 1 }
            lines.append(start ..< end)
            start = cut
        }
        return lines
    }

    /// The same for a `String` (each scalar one cell).
    static func lines(_ text: String, width: Int) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return scalars.withUnsafeBufferPointer { buffer in
            ranges(of: buffer, width: width).map { String(String.UnicodeScalarView(buffer[$0])) }
        }
    }
}
