// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A folder of TiltMaze's that the environment names: `$XDG_CONFIG_HOME`
/// or `$XDG_STATE_HOME`, else one under `$HOME` (the XDG Base Directory
/// rules: a relative value is ignored), and whether this process may use it.
///
/// Run as root with a user's environment (`sudo -E tiltmaze …`), those
/// variables are the user's, and a folder the user owns (or a link the user
/// made) would have root write and rename files where the user chose. So
/// for root the folder is used only when it, and every folder above it, can
/// be changed by root alone: each name owned by root (links too, read with
/// `lstat`, never followed blindly) and writable by no one else (a sticky
/// folder such as /tmp excepted, unless something must be made in it).
/// Every name on the way being root's, nobody else can swap one for a link
/// between this check and the writes that follow it by name. The check
/// goes by the effective uid alone: sudo sets the real one to 0 too, and a
/// set-user-id root would write with the same power whatever its real uid.
///
/// Such a folder is refused, with advice, rather than exchanged for root's
/// own (getpwuid(0)'s home): the settings, calibration and records the
/// player meant would be silently missing, and new ones would pile up in
/// /root, where a refusal says at once what happened and what to do, in
/// the words `ConfigDirectory.Writability` already uses for a folder that
/// cannot be saved in. Any other user, and root with a folder of its own,
/// see the folder as the environment names it, unchecked.
public enum EnvironmentFolder: Equatable, Sendable {
    /// The folder to read and write in.
    case usable(String)
    /// Neither variable is an absolute path.
    case unnamed
    /// Root was given a folder it should not write in.
    case refused(Refusal)

    public struct Refusal: Equatable, Sendable {
        /// The folder the environment named (`…/tiltmaze`).
        public var folder: String
        /// The variable it came from: `XDG_CONFIG_HOME`, `XDG_STATE_HOME` or `HOME`.
        public var variable: String
        /// Which name on the way is not root's alone, and why.
        public var reason: String

        public init(folder: String, variable: String, reason: String) {
            self.folder = folder
            self.variable = variable
            self.reason = reason
        }

        /// What to tell the user: `what` ("settings and calibration") is
        /// neither read nor saved there, and what to do instead.
        public func problem(_ what: String) -> String {
            "\(folder) is not root's alone (\(reason)), and TiltMaze runs as root with that folder from \(variable) "
                + "(sudo -E keeps the user's): \(what) are neither read nor saved there. "
                + "Run it without -E (plain sudo), or set \(variable) to a folder of root's"
        }
    }

    /// The folder, when there is one to use.
    public var path: String? {
        if case .usable(let path) = self { return path }
        return nil
    }

    /// The folder `$variable/tiltmaze`, else `$HOME/underHome/tiltmaze`
    /// (`underHome` such as ".config"), for a process whose effective uid
    /// is `effectiveUID`: checked when that is root (see above).
    public static func choose(_ variable: String, else underHome: String, environment: [String: String],
                              effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> EnvironmentFolder {
        guard let named = named(variable, else: underHome, environment: environment) else { return .unnamed }
        guard effectiveUID == 0 else { return .usable(named.folder) }
        if let reason = notRootsAlone(named.folder) {
            return .refused(Refusal(folder: named.folder, variable: named.variable, reason: reason))
        }
        return .usable(named.folder)
    }

    /// The folder the environment names, unchecked, and the variable that named it.
    public static func named(_ variable: String, else underHome: String,
                             environment: [String: String]) -> (folder: String, variable: String)? {
        if let value = environment[variable], value.hasPrefix("/") { return (value + "/tiltmaze", variable) }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return ((home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + underHome + "/tiltmaze", "HOME")
        }
        return nil
    }

    /// Why root should not write in `folder` (see the type's comment); nil when it may.
    public static func notRootsAlone(_ folder: String) -> String? {
        let walked = PathInsideRoot.resolve(folder) { path, status in
            let type = status.st_mode & S_IFMT
            guard status.st_uid == 0 else {
                return "\(path) is \(type == S_IFLNK ? "a link " : "")owned by uid \(status.st_uid), not root"
            }
            if type != S_IFLNK && status.st_mode & S_ISVTX == 0 && othersMayWrite(path, status) {
                return "\(path) can be written by others (mode \(String(status.st_mode & 0o7777, radix: 8)))"
            }
            return nil
        }
        switch walked {
        case .success(let resolved) where !resolved.exists:
            // What root makes in a folder others may write (even a sticky one) someone else could make first.
            var status = stat()
            if lstat(resolved.existing, &status) == 0, othersMayWrite(resolved.existing, status) {
                return "\(resolved.existing), where it would be made, can be written by others (mode \(String(status.st_mode & 0o7777, radix: 8)))"
            }
            return nil
        case .success:
            return nil
        case .failure(let failure):
            return failure.description
        }
    }

    /// Whether someone other than root may write in `path`, whose `lstat`
    /// is `status`: group-writable counts only for a group other than
    /// root's, and nothing counts on a read-only mount (a tmpfs is 1777
    /// unless told otherwise), which `Writability` names as such.
    static func othersMayWrite(_ path: String, _ status: stat) -> Bool {
        guard status.st_mode & S_IWOTH != 0 || (status.st_mode & S_IWGRP != 0 && status.st_gid != 0) else { return false }
        var mount = statvfs()
        return !(statvfs(path, &mount) == 0 && mount.f_flag & UInt(ST_RDONLY) != 0)
    }

    /// This process's effective uid as the machine sees it: in a user
    /// namespace (`unshare -r`) root inside is an ordinary user outside, who
    /// can do no more harm than that user and whose own files look like
    /// root's while the machine's do not, so it is not taken for root.
    public static var effectiveUID: uid_t {
        let inside = geteuid()
        guard inside == 0, case .success(let bytes) = FileContents.read("/proc/self/uid_map", limit: 64 * 1024) else { return inside }
        return outside(inside, uidMap: String(decoding: bytes, as: UTF8.self))
    }

    /// What `uid` inside a user namespace is outside it, by its `uid_map`
    /// (lines of "inside outside count"); `uid` itself when no line holds it.
    public static func outside(_ uid: uid_t, uidMap: String) -> uid_t {
        for line in uidMap.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { UInt64($0) }
            guard fields.count == 3, UInt64(uid) >= fields[0], UInt64(uid) - fields[0] < fields[2] else { continue }
            return uid_t(truncatingIfNeeded: fields[1] + (UInt64(uid) - fields[0]))
        }
        return uid
    }
}
