// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemCalls
import SystemPackage
import LibC

/// Whether this user may use a device file or sysfs attribute, and if not, why
/// and what to do: the answer `tiltmaze devices` and `doctor` give.
public struct DeviceAccess: Equatable, Sendable, CustomStringConvertible {
    public enum Need: Sendable { case read, readWrite }

    public var path: String
    public var allowed: Bool
    /// Empty when allowed; otherwise the reason and the fix.
    public var explanation: String

    public var description: String { allowed ? "\(path): ok" : "\(path): \(explanation)" }

    /// The group `udev/70-tiltmaze.rules` gives the motion sensors and
    /// triggers to (created by `udev/install.sh` and the package).
    public static let ruleGroup = "tiltmaze"

    /// Who TiltMaze's udev rules give a file to, and so what the fix is.
    public enum Grant: Sendable {
        /// Group `ruleGroup`: IIO motion sensors and their attributes.
        case ruleGroup
        /// The user at the seat, through logind (`uaccess`): screens and
        /// input nodes, which no group of ours is given.
        case seat
        /// No one: I²C buses (a bus reaches chips that are not ours); the
        /// fix is the node's own group (Pi OS's `i2c`).
        case nobody
    }

    /// Checks `path` for `need` with the real user's permissions (`access(2)`).
    ///
    /// - Parameter grantedBy: who the udev rules give this file to.
    public static func check(_ path: String, need: Need, grantedBy: Grant = .ruleGroup) -> DeviceAccess {
        let file = FilePath(path)
        guard case .failure(let refusal) = file.access(need == .read ? .read : [.read, .write]) else {
            return DeviceAccess(path: path, allowed: true, explanation: "")
        }
        guard case .success(let status) = file.status() else {
            return DeviceAccess(path: path, allowed: false, explanation: "missing (\(refusal)); is the driver loaded?")
        }
        let info = status.rawValue
        let groupMember = isMember(of: info.st_gid)
        let group = groupName(info.st_gid)
        return DeviceAccess(path: path, allowed: false, explanation: explain(
            need: need, owner: userName(info.st_uid), group: group, mode: info.st_mode & 0o777,
            inGroupNow: groupMember, listedInGroup: !groupMember && isListedMember(of: group),
            ruleGroup: grantedBy == .ruleGroup ? GroupMembership.of(ruleGroup) : .missing, grantedBy: grantedBy))
    }

    /// The reason and the fix, from what `stat` and the group database say.
    ///
    /// For a motion sensor, once the rules are installed (their group
    /// exists), joining that group is the fix even while the node still
    /// shows another group: the rules' helper gives it to theirs when the
    /// device is added, and a node made before the rules keeps its old one.
    ///
    /// - Parameters:
    ///   - inGroupNow: this process has the file's group.
    ///   - listedInGroup: the group database lists the user (added since this login).
    ///   - ruleGroup: where the user stands with `DeviceAccess.ruleGroup`.
    ///   - grantedBy: who our udev rules give the file to.
    public static func explain(need: Need, owner: String, group: String, mode: mode_t,
                               inGroupNow: Bool, listedInGroup: Bool,
                               ruleGroup: GroupMembership = .missing, grantedBy: Grant = .ruleGroup) -> String {
        let modeText = String(mode, radix: 8)
        let why = "\(need == .read ? "not readable" : "not readable and writable") by you: owner \(owner), group \(group), mode \(modeText)"
        let groupMay = need == .read ? mode & 0o040 != 0 : mode & 0o060 == 0o060
        // The file's own group (video, say) would let the user in: joining it is a fix too.
        let otherGroupWouldAdmit = groupMay && !inGroupNow && group != Self.ruleGroup
        switch ruleGroup {
        case .pendingRelogin:
            return why + "; you were added to group \(Self.ruleGroup) but this login predates it: log out and in again"
        case .notMember:
            return why + "; join group \(Self.ruleGroup) (sudo usermod -aG \(Self.ruleGroup) $USER) and log in again"
        case .member where !otherGroupWouldAdmit:
            return why + "; you are in group \(Self.ruleGroup) but the udev rules do not cover it: reinstall them (\(UdevGuide.current.steps)) and re-trigger udev"
        case .member, .missing:
            break
        }
        if groupMay && !inGroupNow {
            if listedInGroup {
                return why + "; you were added to group \(group) but this login predates it: log out and in again"
            }
            return why + "; join group \(group) (sudo usermod -aG \(group) $USER) and log in again"
        }
        switch grantedBy {
        case .nobody:
            return why + "; TiltMaze's udev rules leave I²C buses alone (a bus reaches every chip on it): on Raspberry Pi OS the group i2c may use them (sudo raspi-config nonint do_i2c 0 sets that up), elsewhere give a group access with a udev rule of your own"
        case .seat:
            return why + "; screens and controllers are the seat's: log in at the board itself (logind gives them to the user sitting there while TiltMaze's udev rules are installed: \(UdevGuide.current.steps))"
        case .ruleGroup:
            return why + "; install the udev rules (\(UdevGuide.current.steps)) to give group access"
        }
    }

    static func userName(_ uid: uid_t) -> String {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }

    static func groupName(_ gid: gid_t) -> String {
        guard let gr = getgrgid(gid), let name = gr.pointee.gr_name else { return String(gid) }
        return String(cString: name)
    }

    /// Whether this process has `gid` (effective, or among its supplementary groups).
    static func isMember(of gid: gid_t) -> Bool {
        if getegid() == gid { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let n = getgroups(count, &groups)
        return n > 0 && groups.prefix(Int(n)).contains(gid)
    }

    /// Whether the group database lists this user in `group` (true after
    /// `usermod -aG` even before the user logs in again).
    static func isListedMember(of group: String) -> Bool {
        guard let gr = getgrnam(group), let pw = getpwuid(getuid()), let user = pw.pointee.pw_name else { return false }
        if gr.pointee.gr_gid == pw.pointee.pw_gid { return true }
        var member = gr.pointee.gr_mem
        while let m = member?.pointee {
            if strcmp(m, user) == 0 { return true }
            member = member?.advanced(by: 1)
        }
        return false
    }
}

/// Where the user stands with a group: what `tiltmaze doctor` reports for
/// the rules' group, and what decides the fix an access error suggests.
public enum GroupMembership: Equatable, Sendable {
    /// This process has the group.
    case member
    /// The group database lists the user, but this login started before.
    case pendingRelogin
    /// The group exists; the user is not in it.
    case notMember
    /// No such group: the udev rules are not installed.
    case missing

    public static func of(_ group: String) -> GroupMembership {
        guard let entry = getgrnam(group) else { return .missing }
        if DeviceAccess.isMember(of: entry.pointee.gr_gid) { return .member }
        return DeviceAccess.isListedMember(of: group) ? .pendingRelogin : .notMember
    }
}
