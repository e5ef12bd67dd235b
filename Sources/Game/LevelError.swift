// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A level file that cannot be used, with where and why.
public struct LevelError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file name as the user gave it ("<bundled>" for built-in levels).
    public var file: String
    /// 1-based line and column of the problem.
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, the form editors and compilers use, so a
    /// terminal or editor can jump to it.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
