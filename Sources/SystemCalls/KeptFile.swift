// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage

/// A small file a program keeps between runs (a calibration, the player's
/// progress), read so that a bad one is never lost and never stops play: a
/// file that cannot be read or decoded is renamed aside (`NAME.bad`,
/// `NAME.bad-2`, …) and the caller starts from its defaults; if it cannot
/// even be moved, the caller is told not to save over it.
public enum KeptFile {
    public enum Loaded<Value> {
        /// No file: start from the defaults, saving is fine.
        case missing
        case loaded(Value)
        /// A bad file: `problem` says what was wrong and where the file went
        /// (or that it stays and must not be saved over: `maySave` false).
        case setAside(problem: String, maySave: Bool)
    }

    /// Reads `path` (at most `limit` bytes) and decodes it; `what` names the
    /// contents in messages ("a calibration"), `instead` says what the
    /// program does without it ("started from level").
    public static func load<Value>(_ path: String, limit: Int, what: String, instead: String,
                                   decode: ([UInt8]) -> Result<Value, DecodeProblem>) -> Loaded<Value> {
        let problem: String
        switch FileContents.read(path, limit: limit) {
        case .failure(.noSuchFileOrDirectory), .failure(.notDirectory):
            return .missing
        case .failure(let errno):
            problem = "cannot read \(path): \(errno)"
        case .success(let bytes):
            switch decode(bytes) {
            case .success(let value): return .loaded(value)
            case .failure(let reason): problem = "\(path) is not \(what) (\(reason.text))"
            }
        }
        switch FilePath(path).moveAside(suffix: "bad") {
        case .success(let aside):
            return .setAside(problem: "\(problem); kept it as \(aside.string) and \(instead)", maySave: true)
        case .failure(let errno):
            return .setAside(problem: "\(problem); could not move it aside (\(errno)), so this run will not save over it: fix or remove it",
                             maySave: false)
        }
    }

    /// What a program starts from: the file's value, or `defaults` (a
    /// missing file, or a bad one set aside, whose `problem` the player must hear).
    public struct Kept<Value> {
        public var value: Value
        /// A bad file set aside (or left where it was), for the player to hear.
        public var problem: String?
        /// False when a bad file could not be set aside: saving would lose it.
        public var maySave: Bool
    }

    /// `load`, with `defaults` standing in for a file missing or bad.
    public static func load<Value>(_ path: String, limit: Int, what: String, instead: String, defaults: Value,
                                   decode: ([UInt8]) -> Result<Value, DecodeProblem>) -> Kept<Value> {
        switch load(path, limit: limit, what: what, instead: instead, decode: decode) {
        case .missing: return Kept(value: defaults, problem: nil, maySave: true)
        case .loaded(let value): return Kept(value: value, problem: nil, maySave: true)
        case .setAside(let problem, let maySave): return Kept(value: defaults, problem: problem, maySave: maySave)
        }
    }

    /// Writes `bytes` to `path` atomically, making its directory first; the
    /// message on failure names the file and says the old one is unchanged.
    public static func save(_ bytes: [UInt8], to path: String, directory: String, what: String) -> Result<String, SaveProblem> {
        if case .failure(let errno) = FilePath(directory).makeDirectoryTree() {
            return .failure(SaveProblem(description: "cannot make \(directory) for \(what): \(errno)"))
        }
        if case .failure(let errno) = bytes.withUnsafeBytes({ AtomicFile.write($0, to: path) }) {
            return .failure(SaveProblem(description: "cannot write \(path): \(errno); the previous \(what) is unchanged"))
        }
        return .success(path)
    }

    /// A name for what `identity` says, fit for a file or a record: its
    /// letters and digits, lower case, at most `length` (readable), then
    /// an FNV-1a hash of all of it, or of `hashing` when given (unique, and
    /// the same on every run, unlike `Hasher`).
    public static func name(for identity: String, hashing: String? = nil, length: Int = 48) -> String {
        var slug = ""
        for scalar in identity.lowercased().unicodeScalars {
            let keep = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if keep { slug.unicodeScalars.append(scalar) } else if !slug.hasSuffix("-") && !slug.isEmpty { slug += "-" }
            if slug.count >= length { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        var hash: UInt32 = 2_166_136_261
        for byte in (hashing ?? identity).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return (slug.isEmpty ? "" : slug + "-") + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Why the contents could not be used, in words for the player.
    public struct DecodeProblem: Error, Sendable {
        public let text: String
        public init(_ text: String) { self.text = text }
    }

    public struct SaveProblem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }
}
