// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// A path resolved one name at a time, its links followed here rather than
/// by the kernel, for two callers the kernel's own walk does not serve:
/// `kiosk --root DIR` (an absolute link inside a system image means the
/// image's file, not this machine's: `systemctl --root` reads it so too),
/// and a check of every folder a path passes through (root deciding whether
/// a folder another user named is safe to write in).
public enum PathInsideRoot {
    /// What the kernel allows too (MAXSYMLINKS): more is taken as a loop.
    public static let linkLimit = 40

    /// Where the walk ended.
    public struct Resolved: Equatable, Sendable {
        /// The path on this machine: `root`, then names inside it; none of
        /// those that exist is a link.
        public var path: String
        /// False when some names at the end do not exist yet (they are
        /// taken as written, to be made).
        public var exists: Bool
        /// The nearest folder of `path` that exists (`path` itself when it does):
        /// where what is missing would be made.
        public var existing: String

        public init(path: String, exists: Bool, existing: String) {
            self.path = path
            self.exists = exists
            self.existing = existing
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `lstat` or `readlink` of `path` failed (other than its absence).
        case cannotExamine(path: String, errno: Errno)
        /// A name that is no folder has more after it.
        case notDirectory(path: String)
        /// More than `linkLimit` links were followed, from the one at `path`.
        case linkLoop(path: String)
        /// A name beyond one that does not exist is `..`: whatever it names
        /// is not known, as the kernel would not know it either.
        case climbsOutOfMissing(path: String)
        /// The `visit` of `resolve` refused `path` for `reason`.
        case refused(path: String, reason: String)

        public var description: String {
            switch self {
            case .cannotExamine(let path, let errno): "cannot examine \(path): \(errno)"
            case .notDirectory(let path): "\(path) is not a folder, yet the path goes on beneath it"
            case .linkLoop(let path): "\(path): more than \(PathInsideRoot.linkLimit) links followed (a loop?): check where they point (ls -l)"
            case .climbsOutOfMissing(let path): "\(path) does not exist, and the path climbs out of it with '..'"
            case .refused(_, let reason): reason
            }
        }
    }

    /// `path` resolved inside `root` as `systemctl --root` does: each name
    /// in turn, an absolute link's target taken from `root`, a relative
    /// one's from the folder holding the link, `..` never above `root`.
    /// `visit` sees `root` (followed: where the caller put it is the
    /// machine's business) and then each name that exists, with its `lstat`,
    /// before it is followed; a text it returns refuses that name and ends
    /// the walk. A name that does not exist ends the walk too: it and those
    /// after it are taken as written (`exists` false).
    public static func resolve(_ path: String, inside root: String = "/",
                               visit: (_ path: String, _ status: stat) -> String? = { _, _ in nil }) -> Result<Resolved, Failure> {
        let base = root == "/" ? "" : String(root.reversed().drop { $0 == "/" }.reversed())
        func onMachine(_ names: [Substring]) -> String { names.isEmpty ? (base.isEmpty ? "/" : base) : base + "/" + names.joined(separator: "/") }

        var status = stat()
        guard stat(base.isEmpty ? "/" : base, &status) == 0 else {
            return .failure(.cannotExamine(path: base.isEmpty ? "/" : base, errno: Errno(rawValue: errno)))
        }
        if let reason = visit(base.isEmpty ? "/" : base, status) { return .failure(.refused(path: base.isEmpty ? "/" : base, reason: reason)) }

        // Names still to walk, the next one last.
        var pending = Array(path.split(separator: "/").reversed())
        var inside: [Substring] = []
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                _ = inside.popLast()
                continue
            }
            let candidate = onMachine(inside + [name])
            guard lstat(candidate, &status) == 0 else {
                let failed = Errno(rawValue: errno)
                guard failed == .noSuchFileOrDirectory else { return .failure(.cannotExamine(path: candidate, errno: failed)) }
                let existing = onMachine(inside)
                inside.append(name)
                for rest in pending.reversed() where rest != "." {
                    if rest == ".." { return .failure(.climbsOutOfMissing(path: candidate)) }
                    inside.append(rest)
                }
                return .success(Resolved(path: onMachine(inside), exists: false, existing: existing))
            }
            if let reason = visit(candidate, status) { return .failure(.refused(path: candidate, reason: reason)) }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                guard links <= linkLimit else { return .failure(.linkLoop(path: candidate)) }
                let target: String
                switch readLink(candidate) {
                case .success(let text): target = text
                case .failure(let failed): return .failure(.cannotExamine(path: candidate, errno: failed))
                }
                if target.hasPrefix("/") { inside = [] }
                pending += target.split(separator: "/").reversed()
            case S_IFDIR:
                inside.append(name)
            default:
                guard pending.isEmpty else { return .failure(.notDirectory(path: candidate)) }
                inside.append(name)
            }
        }
        let path = onMachine(inside)
        return .success(Resolved(path: path, exists: true, existing: path))
    }

    /// The target of the link at `path`. The corresponding C function is `readlink`.
    static func readLink(_ path: String) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count)
        guard n >= 0 else { return .failure(Errno(rawValue: errno)) }
        // A target as long as the buffer may have been cut short.
        guard n < buffer.count else { return .failure(.fileNameTooLong) }
        return .success(String(decoding: buffer[0 ..< n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
