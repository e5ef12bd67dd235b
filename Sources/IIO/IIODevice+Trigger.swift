// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import SystemCalls

/// The trigger that paces a device's buffered capture
/// (`trigger/current_trigger` in sysfs).
extension IIODevice {
    /// The trigger set now, or nil when none is set.
    ///
    /// Fails with ENOENT when the device takes no trigger at all (FIFO
    /// drivers such as st_lsm6dsx have no `trigger/` directory), and with
    /// ENXIO when the trigger named in `current_trigger` is not a device of
    /// this context (it appeared after the context was created).
    /// The corresponding C function is `iio_device_get_trigger`, which in
    /// libiio 0.24 fails with EIO when no trigger is set (the kernel leaves
    /// `current_trigger` empty, and libiio takes an empty read for an
    /// error, locally and through iiod alike: libiio issue 1061): that is
    /// nil here. (Seen on the real bmi160 driver in the qemu tier.)
    public func currentTrigger() throws(IIOError) -> IIODevice? {
        let path = attributePath("trigger/current_trigger")
        do {
            return try c_iio_device_get_trigger(handle, path: path)
                .get().map { IIODevice(context: context, handle: $0) }
        } catch where error.errno == EIO && (!context.isLocal || isEmptyLocalFile(path)) {
            return nil
        } catch where error.errno == ENXIO {
            var error = error
            let named = (try? readAttribute("trigger/current_trigger")).map(trimmedAttributeText) ?? "?"
            error.detail = "it names trigger \"\(named)\", which is not in this context: open a new context after creating a trigger"
            throw error
        }
    }

    /// Sets the trigger (a device whose `isTrigger` is true), or clears it with nil.
    /// The corresponding C function is `iio_device_set_trigger`.
    public func setTrigger(_ trigger: IIODevice?) throws(IIOError) {
        if let trigger, !trigger.isTrigger {
            throw IIOError(errno: EINVAL, operation: "set its trigger to \(trigger)",
                           path: attributePath("trigger/current_trigger"),
                           detail: "\(trigger) is not a trigger")
        }
        try c_iio_device_set_trigger(handle, trigger?.handle, triggerName: trigger?.name ?? "",
                                     path: attributePath("trigger/current_trigger")).get()
    }
}
