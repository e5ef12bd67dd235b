// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev
import SystemCalls
import SystemPackage
import LibC

/// An open evdev input node (`/dev/input/eventN`), read through libevdev.
///
/// Owns the file descriptor and the libevdev handle (`EvdevHandle`), which
/// release themselves (closing the descriptor also ends a grab). What the device is:
/// here; what it can send: `EvdevDevice+Capabilities.swift`; reading it:
/// `EvdevDevice+Reading.swift`.
public final class EvdevDevice: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time (the sensor thread once started).
    public let path: String
    private let owner: EvdevHandle
    var handle: OpaquePointer { owner.pointer }

    /// A SYN_DROPPED ended the last batch; the next read starts the resync.
    var resyncPending = false
    /// libevdev still holds events of a resync (the caller's buffer filled up).
    var resyncing = false

    /// Opens `path` read-only and non-blocking, and reads the device's
    /// description. The corresponding C functions are `open` and
    /// `libevdev_new_from_fd`.
    public init(path: String) throws(EvdevError) {
        self.path = path
        let file: OwnedDescriptor
        do {
            file = try OwnedDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw EvdevError(errno: error.rawValue, operation: "open", path: path)
        }
        switch file.withDescriptor { c_libevdev_new_from_fd($0.rawValue, path: path) } {
        case .success(let dev):
            owner = EvdevHandle(pointer: dev, file: file)
        case .failure(let error):
            throw error   // `file` closes itself
        }
    }

    /// The kernel's name for the device, e.g. "Sony Interactive Entertainment
    /// DualSense Wireless Controller Motion Sensors".
    /// The corresponding C function is `libevdev_get_name`.
    public var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }

    /// Physical location, e.g. "usb-0000:01:00.0-1.3/input3" or a Bluetooth
    /// adapter's address; nil when the driver gives none.
    /// The corresponding C function is `libevdev_get_phys`.
    public var phys: String? { libevdev_get_phys(handle).map { String(cString: $0) } }

    /// Unique id, e.g. the controller's Bluetooth address; a controller's
    /// motion node and gamepad node share it. Nil when the driver gives none.
    /// The corresponding C function is `libevdev_get_uniq`.
    public var uniq: String? { libevdev_get_uniq(handle).map { String(cString: $0) } }

    /// Bus, vendor, product and version. The corresponding C functions are
    /// `libevdev_get_id_bustype`, `_vendor`, `_product`, `_version`.
    public var id: EvdevInputID {
        EvdevInputID(bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
                     vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
                     product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
                     version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
    }

    /// The evdev protocol version of the kernel driver (0x010001).
    /// The corresponding C function is `libevdev_get_driver_version`.
    public var driverVersion: Int32 { libevdev_get_driver_version(handle) }

    /// Whether the device sets input property `property`.
    /// The corresponding C function is `libevdev_has_property`.
    public func hasProperty(_ property: EvdevProperty) -> Bool {
        libevdev_has_property(handle, property.rawValue) == 1
    }

    /// Whether the node is a motion sensor (`INPUT_PROP_ACCELEROMETER`):
    /// ABS_X/Y/Z are acceleration, ABS_RX/RY/RZ angular velocity.
    public var isMotionSensor: Bool { hasProperty(.accelerometer) }
}

/// libevdev's device and the descriptor it reads, released together when
/// their one owner goes: libevdev first, since it reads the descriptor
/// until it is freed; the descriptor (`OwnedDescriptor`) after.
struct EvdevHandle: ~Copyable {
    let pointer: OpaquePointer
    let file: OwnedDescriptor

    init(pointer: OpaquePointer, file: consuming OwnedDescriptor) {
        self.pointer = pointer
        self.file = file
    }

    deinit { libevdev_free(pointer) }
}
