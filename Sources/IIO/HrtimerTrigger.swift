// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import LibC

/// A high-resolution-timer IIO trigger, made and removed through configfs:
/// `mkdir <configfs>/iio/triggers/hrtimer/<name>` makes the kernel create an
/// IIO trigger device named `<name>`; `rmdir` removes it.
///
/// Its rate is the trigger device's `sampling_frequency` attribute, written
/// through a context opened *after* creation (a context is a snapshot):
/// `IIOContext().device(named: name)?.writeAttribute("sampling_frequency", 100)`.
/// Needs configfs mounted and the `iio-trig-hrtimer` module (which pulls in
/// `industrialio-sw-trigger`). Making, removing and pacing one is root's:
/// TiltMaze's udev rules grant none of it, for the kernel bounds the rate
/// only at about 4 MHz.
public struct HrtimerTrigger: Sendable, Equatable {
    /// Where configfs is normally mounted.
    public static let defaultConfigfsRoot = "/sys/kernel/config"

    /// The trigger's name, which is also the IIO trigger device's `name`.
    public let name: String
    /// Its configfs directory: `<configfs>/iio/triggers/hrtimer/<name>`.
    public let directory: String

    /// `<configfs>/iio/triggers/hrtimer`, where hrtimer triggers are made.
    public static func hrtimerDirectory(configfsRoot: String = defaultConfigfsRoot) -> String {
        "\(configfsRoot)/iio/triggers/hrtimer"
    }

    /// The trigger of this name if its configfs directory exists.
    public static func existing(named name: String, configfsRoot: String = defaultConfigfsRoot) -> HrtimerTrigger? {
        let directory = "\(hrtimerDirectory(configfsRoot: configfsRoot))/\(name)"
        return FilePath(directory).isDirectory ? HrtimerTrigger(name: name, directory: directory) : nil
    }

    private init(name: String, directory: String) {
        self.name = name
        self.directory = directory
    }

    /// Creates the trigger. The corresponding C function is `mkdir`.
    ///
    /// Errors say which piece is missing: configfs not mounted at
    /// `configfsRoot`, or no `iio/triggers/hrtimer` in it (the module is not
    /// loaded or not built); EEXIST when a trigger of that name exists;
    /// EACCES when this user may not create it.
    public static func create(named name: String, configfsRoot: String = defaultConfigfsRoot) throws(IIOError) -> HrtimerTrigger {
        let parent = hrtimerDirectory(configfsRoot: configfsRoot)
        let directory = "\(parent)/\(name)"
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw IIOError(errno: EINVAL, operation: "create hrtimer trigger \"\(name)\"", path: directory,
                           detail: "a trigger name is one non-empty path component")
        }
        if case .failure(let e) = FilePath(directory).makeDirectory() {
            throw explain(e.rawValue, operation: "create hrtimer trigger \(name)", path: directory, configfsRoot: configfsRoot)
        }
        return HrtimerTrigger(name: name, directory: directory)
    }

    /// Removes the trigger. Set no device to use it first: the kernel does
    /// not refuse while it is some device's current trigger (configfs answers
    /// EBUSY only for its own links, which IIO never makes), and that
    /// device's scans stop. The corresponding C function is `rmdir`.
    public func remove() throws(IIOError) {
        if case .failure(let e) = FilePath(directory).removeDirectory() {
            var error = IIOError(errno: e.rawValue, operation: "remove hrtimer trigger \(name)", path: directory)
            switch e.rawValue {
            case EBUSY: error.detail = "configfs holds a link to it: remove that first"
            case EACCES, EPERM: error.detail = "removing triggers in configfs needs root"
            default: break
            }
            throw error
        }
    }

    /// How far the machine is from letting hrtimer triggers be made: which
    /// piece is missing, or whether this user may make them.
    public enum Availability: Equatable, Sendable, CustomStringConvertible {
        /// `iio/triggers/hrtimer` exists; `writable` when this user may mkdir in it.
        case available(writable: Bool)
        /// configfs is mounted but the hrtimer trigger type is not registered.
        case moduleNotLoaded
        /// configfs is mounted but has no `iio` directory (no software triggers).
        case noIIOInConfigfs
        /// Nothing at the configfs root.
        case configfsNotMounted

        public var description: String {
            switch self {
            case .available(true): "hrtimer triggers can be made by you"
            case .available(false): "hrtimer triggers exist in the kernel but only root makes them: tiltmaze-hrtimer.service makes one at boot (sudo udev/install.sh --hrtimer)"
            case .moduleNotLoaded: "the kernel has no hrtimer trigger type: load it with `sudo modprobe iio-trig-hrtimer` (CONFIG_IIO_HRTIMER_TRIGGER)"
            case .noIIOInConfigfs: "configfs has no iio directory: load `industrialio-sw-trigger` and `iio-trig-hrtimer` with `sudo modprobe`"
            case .configfsNotMounted: "configfs is not mounted: sudo mount -t configfs none \(HrtimerTrigger.defaultConfigfsRoot)"
            }
        }
    }

    /// Which of `Availability` holds under `configfsRoot`.
    public static func availability(configfsRoot: String = defaultConfigfsRoot) -> Availability {
        let hrtimer = hrtimerDirectory(configfsRoot: configfsRoot)
        if FilePath(hrtimer).isDirectory {
            return .available(writable: FilePath(hrtimer).isAccessible([.write, .execute]))
        }
        if FilePath("\(configfsRoot)/iio").isDirectory { return .moduleNotLoaded }
        if FilePath(configfsRoot).isDirectory { return .noIIOInConfigfs }
        return .configfsNotMounted
    }

    /// Turns a failed mkdir into a message about what is missing.
    private static func explain(_ code: Int32, operation: String, path: String, configfsRoot: String) -> IIOError {
        var error = IIOError(errno: code, operation: operation, path: path)
        switch code {
        case ENOENT:
            switch availability(configfsRoot: configfsRoot) {
            case .configfsNotMounted:
                error.detail = "configfs is not mounted at \(configfsRoot): mount -t configfs none \(configfsRoot)"
            case let missing:
                error.detail = missing.description
            }
        case EEXIST:
            error.detail = "a trigger of that name exists already: use it, or remove it first"
        case EACCES, EPERM:
            error.detail = "creating triggers in configfs needs root: create it once at boot (e.g. a systemd unit) and let the program use it"
        default: break
        }
        return error
    }
}
