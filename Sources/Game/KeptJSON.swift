// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import SystemCalls

/// The JSON every file TiltMaze keeps has: its own fields beside a
/// `format` name and a `version`, both checked before anything else is read.
protocol VersionedContents: Codable {
    var format: String? { get }
    var version: Int? { get }
}

/// Reading and writing a kept file's JSON, in the words a player reads
/// about a file refused (`KeptFile` sets it aside with them).
enum KeptJSON {
    /// `bytes` as `T`; refused when they are no JSON of that shape, or
    /// name another format or version.
    static func decode<T: VersionedContents>(_ type: T.Type, from bytes: [UInt8], format: String,
                                             version: Int) -> Result<T, KeptFile.DecodeProblem> {
        let contents: T
        do {
            contents = try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            return .failure(.init("not JSON in the expected shape"))
        }
        guard contents.format == format else { return .failure(.init("\"format\" should be \"\(format)\"")) }
        guard let v = contents.version else { return .failure(.init("no \"version\"")) }
        guard v == version else { return .failure(.init("version \(v); this TiltMaze reads version \(version)")) }
        return .success(contents)
    }

    /// `contents` pretty-printed with sorted keys (a person may read and
    /// edit the file), ending in a newline. Only for contents of finite
    /// numbers, strings and Bools, whose encoding cannot fail.
    static func encode<T: Encodable>(_ contents: T, escapingSlashes: Bool = true) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.prettyPrinted, .sortedKeys] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(contents)) + [0x0A]
    }
}
