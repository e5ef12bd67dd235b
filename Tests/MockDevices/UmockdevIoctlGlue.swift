// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CUmockdev
import LibC

/// Connects a `MockEvdevIoctlHandler` to a testbed node through umockdev's
/// ioctl emulation.
///
/// With a handler attached, the preload sends every `ioctl` and `read` on
/// the node to the testbed's worker thread: `handle-ioctl` answers the
/// ioctls; `handle-read` fails reads once the device is unplugged and
/// otherwise declines, so the read goes to the pty holding the events.
enum UmockdevIoctlGlue {
    /// Makes an ioctl handler object, connects the two signals to `handler`
    /// and attaches it to `node`. Each connection holds a reference to
    /// `handler`, released when umockdev drops the handler object (after
    /// the testbed and every client connection are gone), so the callbacks
    /// never see a freed handler.
    static func attach(_ handler: MockEvdevIoctlHandler, to node: String,
                       in testbed: UnsafeMutablePointer<UMockdevTestbed>) throws(TestbedError) {
        try attach(handler, to: node, in: testbed, signals: [("handle-ioctl", unsafeBitCast(handleIoctl, to: GCallback.self)),
                                                             ("handle-read", unsafeBitCast(handleRead, to: GCallback.self))])
    }

    /// Makes an ioctl handler object, connects each signal's callback with
    /// `owner` as its user data and attaches it to `node`: the one way every
    /// mock device (evdev, framebuffer, I²C bus) answers its node's calls.
    /// Each connection holds a reference to `owner`, released when umockdev
    /// drops the handler object.
    static func attach(_ owner: AnyObject, to node: String, in testbed: UnsafeMutablePointer<UMockdevTestbed>,
                       signals: [(name: String, callback: GCallback)]) throws(TestbedError) {
        guard let base = umockdev_ioctl_base_new() else {
            throw TestbedError("umockdev: cannot make an ioctl handler for \(node)")
        }
        let object = UnsafeMutableRawPointer(base)
        defer { g_object_unref(object) } // the testbed keeps its own reference
        for signal in signals {
            let userData = Unmanaged.passRetained(owner).toOpaque()
            g_signal_connect_data(object, signal.name, signal.callback, userData, releaseOwner, GConnectFlags(rawValue: 0))
        }
        var error: UnsafeMutablePointer<GError>? = nil
        if umockdev_testbed_attach_ioctl(testbed, node, base, &error) == 0 {
            throw TestbedError(consuming: error, doing: "attach an ioctl handler to \(node)")
        }
    }
}

/// `GClosureNotify` of a connection: drops its reference to the owner.
private let releaseOwner: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { userData, _ in
    if let userData { Unmanaged<AnyObject>.fromOpaque(userData).release() }
}

/// `handle-ioctl(UMockdevIoctlBase *, UMockdevIoctlClient *, gpointer)`: answers one ioctl.
private let handleIoctl: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                         UnsafeMutableRawPointer?) -> gboolean = { _, clientPointer, userData in
    guard let clientPointer, let userData else { return 0 }
    let handler = Unmanaged<MockEvdevIoctlHandler>.fromOpaque(userData).takeUnretainedValue()
    let client = clientPointer.assumingMemoryBound(to: UMockdevIoctlClient.self)
    let request = EvdevIoctlRequest(UInt(umockdev_ioctl_client_get_request(client)))
    let clientID = UInt(bitPattern: clientPointer)
    let arg = umockdev_ioctl_client_get_arg(client)

    // The raw argument: a pointer for most requests, the value itself for
    // EVIOCGRAB, EVIOCREVOKE, EVIOCRMFF (which must not be dereferenced).
    var argument: UInt = 0
    if let arg, let raw = arg.pointee.data, arg.pointee.data_len >= Int32(MemoryLayout<UInt>.size) {
        argument = UnsafeRawPointer(raw).loadUnaligned(as: UInt.self)
    }
    let byValue: Set<UInt8> = [0x90, 0x91, 0x81]
    var buffer: UnsafeMutablePointer<UMockdevIoctlData>? = nil
    var input: [UInt8] = []
    if request.isEvdev && request.direction != 0 && request.size > 0 && !byValue.contains(request.number)
        && argument != 0, let arg {
        var error: UnsafeMutablePointer<GError>? = nil
        buffer = umockdev_ioctl_data_resolve(arg, 0, gsize(request.size), &error)
        if let error { g_error_free(error) }
        guard let buffer, let bytes = buffer.pointee.data else {
            umockdev_ioctl_client_complete(client, -1, EFAULT)
            return 1
        }
        input = Array(UnsafeBufferPointer(start: bytes, count: Int(buffer.pointee.data_len)))
    }

    let answer = handler.answer(request, input: input, argument: argument, client: clientID)
    if let output = answer.output, let buffer, let bytes = buffer.pointee.data {
        for i in 0..<min(output.count, Int(buffer.pointee.data_len)) { bytes[i] = output[i] }
    }
    umockdev_ioctl_client_complete(client, answer.result, answer.errno)
    if let buffer { umockdev_ioctl_data_unref(buffer) }
    return 1
}

/// `handle-read(UMockdevIoctlBase *, UMockdevIoctlClient *, gpointer)`:
/// fails the read with ENODEV once unplugged or revoked; otherwise declines
/// (FALSE), and umockdev lets the preload read the pty.
private let handleRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                        UnsafeMutableRawPointer?) -> gboolean = { _, clientPointer, userData in
    guard let clientPointer, let userData else { return 0 }
    let handler = Unmanaged<MockEvdevIoctlHandler>.fromOpaque(userData).takeUnretainedValue()
    guard let errno = handler.readError(client: UInt(bitPattern: clientPointer)) else { return 0 }
    umockdev_ioctl_client_complete(clientPointer.assumingMemoryBound(to: UMockdevIoctlClient.self), -1, errno)
    return 1
}
