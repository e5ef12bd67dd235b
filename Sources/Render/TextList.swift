// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Lines of text (ASCII: others show as `?`) made once and then read every
/// frame without allocating: the level menu's lines.
final class TextList {
    private let lines: [UnsafeMutableBufferPointer<UInt8>]

    init(_ strings: [String]) {
        lines = strings.map { string in
            let bytes = BitmapFont.bytes(string)
            let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = line.initialize(from: bytes)
            return line
        }
    }

    deinit { for line in lines { line.deallocate() } }

    var count: Int { lines.count }
    subscript(index: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(lines[index]) }
}
