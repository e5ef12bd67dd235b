// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

extension ConfigDirectory {
    /// Whether the settings and calibration can be saved, known before a
    /// game rather than learnt from a save that fails at its end, with
    /// advice that fits the cause: a read-only file system is remounted (or
    /// another folder chosen), where a folder of someone else's wants its
    /// owner and mode looked at.
    public enum Writability: Equatable, Sendable {
        /// It exists and can be written.
        case writable(directory: String)
        /// It does not exist yet; `parent`, the nearest folder that does, lets it be made.
        case willBeMade(directory: String, parent: String)
        /// Nothing can be saved in `directory`: `blocking` (it, or the
        /// nearest folder that exists) is on a read-only file system, or
        /// not writable by this user.
        case unwritable(directory: String, blocking: String, readOnlyFileSystem: Bool)
        /// Neither XDG_CONFIG_HOME nor HOME is an absolute path.
        case nowhere
        /// Run as root, the folder the environment names is not root's alone:
        /// nothing is read or saved there (`EnvironmentFolder`).
        case refused(EnvironmentFolder.Refusal)

        /// What to tell the user, with what to do; nil when saving is fine.
        public var problem: String? {
            switch self {
            case .writable, .willBeMade: return nil
            case .nowhere:
                return "neither XDG_CONFIG_HOME nor HOME is an absolute path: settings and calibration cannot be saved"
            case .refused(let refusal):
                return refusal.problem(ConfigDirectory.contents)
            case .unwritable(let directory, let blocking, true):
                return "\(blocking) is on a read-only file system: settings and calibration cannot be saved in \(directory). "
                    + "Remount it read-write (findmnt -T \(blocking) names the mount), "
                    + "or set XDG_CONFIG_HOME to a folder on a writable one"
            case .unwritable(let directory, let blocking, false):
                let what = blocking == directory ? "\(directory) is not writable by you" : "\(directory) cannot be made: \(blocking) is not writable by you"
                return "\(what): settings and calibration cannot be saved. "
                    + "Check its owner and mode (ls -ld \(blocking)), or set XDG_CONFIG_HOME to a folder of yours"
            }
        }

        /// Whether saving should be tried at all.
        public var maySave: Bool { problem == nil }
    }

    /// Whether the config directory `environment` names can be written (or
    /// made) by a process whose effective uid is `effectiveUID`.
    public static func writability(environment: [String: String],
                                   effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> Writability {
        let directory: String
        switch choose(environment: environment, effectiveUID: effectiveUID) {
        case .usable(let path): directory = path
        case .unnamed: return .nowhere
        case .refused(let refusal): return .refused(refusal)
        }
        // The directory itself, or the nearest folder that exists: that one decides.
        var existing = directory
        while access(existing, F_OK) != 0 && existing != "/" {
            existing = existing.lastIndex(of: "/").map { $0 == existing.startIndex ? "/" : String(existing[..<$0]) } ?? "/"
        }
        // access(2) answers EROFS for a read-only mount whoever asks (root too), EACCES for permissions.
        if access(existing, W_OK | X_OK) == 0 {
            return existing == directory ? .writable(directory: directory) : .willBeMade(directory: directory, parent: existing)
        }
        return .unwritable(directory: directory, blocking: existing, readOnlyFileSystem: errno == EROFS)
    }
}
