// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization
import LibC

/// Answers the evdev ioctls of one mock input node as the kernel's evdev
/// driver would, from a `MockEvdevDevice` and the state its events left.
///
/// `answer(_:input:argument:client:)` is pure bookkeeping, testable without
/// umockdev; `UmockdevIoctlGlue` connects it to umockdev's `handle-ioctl`
/// and `handle-read` signals. Those run on umockdev's worker thread while
/// the test writes events on its own, so all state sits behind a mutex.
///
/// What it does like the kernel (drivers/input/evdev.c):
/// - `EVIOCGNAME/PHYS/UNIQ(len)` copy the string and its NUL, cut at
///   `len`, and return the bytes copied; a missing string is ENOENT.
/// - `EVIOCGBIT`, `EVIOCGPROP`, `EVIOCGKEY/LED/SND/SW` copy a bitmap of
///   `unsigned long`s, cut at `len`, and return the bytes copied.
/// - `EVIOCGABS(code)` copies the axis' `input_absinfo` with the value of
///   the last event written for it.
/// - `EVIOCGRAB` grabs for one open file (EBUSY for another, EINVAL to
///   ungrab what it does not hold); `EVIOCSCLOCKID` accepts REALTIME,
///   MONOTONIC and BOOTTIME per open file; `EVIOCREVOKE` makes that file's
///   reads and ioctls fail with ENODEV.
/// - After `unplug()`, every ioctl and read fails with ENODEV, as for a
///   device the kernel has removed.
/// - Anything else is EINVAL (ENOTTY for a non-evdev request) and is kept
///   in `unansweredRequests`, so a test can see what libevdev asked.
public final class MockEvdevIoctlHandler: Sendable {
    public let device: MockEvdevDevice

    /// What the kernel would answer: a result, an errno when it is -1, and
    /// the bytes to copy to the caller's buffer (cut at the request size).
    public struct Answer: Sendable, Equatable {
        public var result: Int
        public var errno: Int32
        public var output: [UInt8]?

        public static func success(_ result: Int = 0, _ output: [UInt8]? = nil) -> Answer {
            Answer(result: result, errno: 0, output: output)
        }

        public static func failure(_ errno: Int32) -> Answer { Answer(result: -1, errno: errno, output: nil) }
    }

    /// One request as it was answered.
    public struct LoggedRequest: Sendable, CustomStringConvertible {
        public var request: EvdevIoctlRequest
        public var answer: Answer
        public var description: String {
            answer.result < 0 ? "\(request.name) → -1 errno \(answer.errno)" : "\(request.name) → \(answer.result)"
        }
    }

    struct State {
        /// Current EV_ABS values (the absinfo value field).
        var absValues: [UInt16: Int32] = [:]
        /// Codes held down / lit / on, by type (EV_KEY, EV_LED, EV_SW, EV_SND).
        var activeCodes: [UInt16: Set<UInt16>] = [:]
        /// Extra absinfo set with EVIOCSABS, replacing the description's.
        var absInfoOverrides: [UInt16: MockAbsInfo] = [:]
        /// Clock per open file (client id), set with EVIOCSCLOCKID.
        var clocks: [UInt: Int32] = [:]
        /// The open file holding the grab, if any.
        var grabbedBy: UInt?
        var revoked: Set<UInt> = []
        var unplugged = false
        var log: [LoggedRequest] = []
        var readCount = 0
        /// Run once, by the next read's check, before that read goes on to the pty.
        var beforeNextRead: (@Sendable () -> Void)?
    }

    let state: Mutex<State>

    public init(device: MockEvdevDevice) {
        self.device = device
        var initial = State()
        for (code, info) in device.absInfo { initial.absValues[code] = info.value }
        state = Mutex(initial)
    }

    // MARK: What tests look at

    /// Every request answered so far, in order.
    public var requestLog: [LoggedRequest] { state.withLock { $0.log } }

    /// Requests this mock does not implement (answered EINVAL, or ENOTTY
    /// when not evdev's): what libevdev asked that the mock could not say.
    public var unansweredRequests: [EvdevIoctlRequest] {
        state.withLock { $0.log.filter { !Self.isKnown($0.request) }.map(\.request) }
    }

    /// The clock ids set with EVIOCSCLOCKID, one per open file that set one.
    public var clockIDs: [Int32] { state.withLock { Array($0.clocks.values) } }

    /// Whether some open file holds the grab.
    public var isGrabbed: Bool { state.withLock { $0.grabbedBy != nil } }

    /// Reads that went through the handler (all reads of the node do).
    public var readCount: Int { state.withLock { $0.readCount } }

    /// The current value of an axis, as `EVIOCGABS` reports it.
    public func absValue(_ code: UInt16) -> Int32 { state.withLock { $0.absValues[code] ?? 0 } }

    // MARK: What the device does

    /// Records the state the events leave, as the input core does when a
    /// driver reports them: the last value of each axis, keys held.
    public func record(_ events: [MockInputEvent]) {
        state.withLock { s in
            for e in events where device.has(type: e.type, code: e.code) {
                switch e.type {
                case LinuxInput.EV_ABS:
                    s.absValues[e.code] = e.value
                case LinuxInput.EV_KEY, LinuxInput.EV_LED, LinuxInput.EV_SW, LinuxInput.EV_SND:
                    if e.value != 0 { s.activeCodes[e.type, default: []].insert(e.code) }
                    else { s.activeCodes[e.type]?.remove(e.code) }
                default:
                    break
                }
            }
        }
    }

    /// The device is gone: from now on every ioctl and read fails with ENODEV.
    public func unplug() { state.withLock { $0.unplugged = true } }

    // MARK: Answers

    /// Whether a read by `client` fails, and with which errno (nil: let the
    /// read go to the pty, where the written events are).
    public func readError(client: UInt) -> Int32? {
        let (error, action) = state.withLock { s in
            s.readCount += 1
            defer { s.beforeNextRead = nil }
            return (s.unplugged || s.revoked.contains(client) ? ENODEV : nil, s.beforeNextRead)
        }
        // After the check, as if the reader's thread lost the CPU between it and the pty.
        action?()
        return error
    }

    /// Has the next read, once it has passed the unplugged check, wait for
    /// `action` before it reads the pty: the window a loaded machine can
    /// open by chance, opened on purpose.
    public func beforeNextRead(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.beforeNextRead = action }
    }

    /// The answer to `request` from open file `client`. `input` holds the
    /// caller's buffer as it was passed in (for requests that read it);
    /// `argument` is the raw argument, for requests that pass a value
    /// rather than a pointer (`EVIOCGRAB`, `EVIOCREVOKE`).
    public func answer(_ request: EvdevIoctlRequest, input: [UInt8] = [], argument: UInt = 0, client: UInt) -> Answer {
        state.withLock { s in
            let answer = Self.answer(request, input: input, argument: argument, client: client, device: device, state: &s)
            s.log.append(LoggedRequest(request: request, answer: answer))
            return answer
        }
    }

    /// Requests this mock implements (any direction/size variant).
    static func isKnown(_ request: EvdevIoctlRequest) -> Bool {
        guard request.isEvdev else { return false }
        switch request.number {
        case 0x01, 0x02, 0x03, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x18, 0x19, 0x1a, 0x1b, 0x20...0x3f, 0x40...0x7f,
             0x90, 0x91, 0xa0, 0xc0...0xff:
            return true
        default:
            return false
        }
    }

    private static func answer(_ request: EvdevIoctlRequest, input: [UInt8], argument: UInt, client: UInt,
                               device: MockEvdevDevice, state s: inout State) -> Answer {
        guard request.isEvdev else { return .failure(ENOTTY) }
        if s.unplugged || s.revoked.contains(client) { return .failure(ENODEV) }
        let size = request.size
        let n = request.number
        switch n {
        case 0x01: // EVIOCGVERSION
            return .success(0, bytes(of: LinuxInput.EV_VERSION))
        case 0x02: // EVIOCGID
            let id = device.id
            return .success(0, bytes(of: id.bustype) + bytes(of: id.vendor) + bytes(of: id.product) + bytes(of: id.version))
        case 0x03 where request.direction == 2: // EVIOCGREP
            guard let rep = device.keyRepeat else { return .failure(ENOSYS) }
            return .success(0, bytes(of: UInt32(bitPattern: rep.delay)) + bytes(of: UInt32(bitPattern: rep.period)))
        case 0x06, 0x07, 0x08: // EVIOCGNAME, EVIOCGPHYS, EVIOCGUNIQ
            let text = n == 0x06 ? device.name : n == 0x07 ? device.phys : device.uniq
            guard let text else { return .failure(ENOENT) }
            let copied = Array((Array(text.utf8) + [0]).prefix(size))
            return .success(copied.count, copied)
        case 0x09: // EVIOCGPROP
            return bitmapAnswer(device.propertyBitmap, maxBit: LinuxInput.INPUT_PROP_MAX, size: size)
        case 0x0a: // EVIOCGMTSLOTS: u32 code, then one s32 per slot
            guard input.count >= 4 else { return .failure(EINVAL) }
            let code = UInt16(truncatingIfNeeded: input.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            guard device.has(type: LinuxInput.EV_ABS, code: code) else { return .failure(EINVAL) }
            let value = s.absValues[code] ?? 0
            let slots = max(0, (size - 4) / 4)
            return .success(0, Array(input.prefix(4)) + (0..<slots).flatMap { _ in bytes(of: value) })
        case 0x18, 0x19, 0x1a, 0x1b: // EVIOCGKEY, EVIOCGLED, EVIOCGSND, EVIOCGSW
            let type: UInt16 = [0x18: LinuxInput.EV_KEY, 0x19: LinuxInput.EV_LED, 0x1a: LinuxInput.EV_SND,
                                0x1b: LinuxInput.EV_SW][n]!
            let max = LinuxInput.maxCode(of: type)!
            return bitmapAnswer(MockEvdevDevice.bitmap(s.activeCodes[type] ?? [], maxBit: max), maxBit: max, size: size)
        case 0x20...0x3f: // EVIOCGBIT(ev, len)
            let type = UInt16(n - 0x20)
            let bitmapTypes: Set<UInt16> = [0, LinuxInput.EV_KEY, LinuxInput.EV_REL, LinuxInput.EV_ABS, LinuxInput.EV_MSC,
                                            LinuxInput.EV_LED, LinuxInput.EV_SND, LinuxInput.EV_FF, LinuxInput.EV_SW]
            guard bitmapTypes.contains(type), let words = device.bitmap(of: type) else { return .failure(EINVAL) }
            return bitmapAnswer(words, maxBit: type == 0 ? LinuxInput.EV_MAX : LinuxInput.maxCode(of: type)!, size: size)
        case 0x40...0x7f where request.direction == 2: // EVIOCGABS(code)
            guard device.codes[LinuxInput.EV_ABS] != nil else { return .failure(EINVAL) }
            let code = UInt16(n - 0x40)
            var info = s.absInfoOverrides[code] ?? device.absInfo[code] ?? MockAbsInfo(minimum: 0, maximum: 0)
            info.value = s.absValues[code] ?? 0
            return .success(0, info.bytes)
        case 0xc0...0xff where request.direction == 1: // EVIOCSABS(code)
            let code = UInt16(n - 0xc0)
            guard device.codes[LinuxInput.EV_ABS] != nil, input.count >= 24 else { return .failure(EINVAL) }
            let v = (0..<6).map { i in input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self) } }
            s.absInfoOverrides[code] = MockAbsInfo(value: v[0], minimum: v[1], maximum: v[2], fuzz: v[3], flat: v[4], resolution: v[5])
            s.absValues[code] = v[0]
            return .success()
        case 0x90: // EVIOCGRAB: the argument is the value itself
            if argument != 0 {
                if s.grabbedBy != nil { return .failure(EBUSY) }
                s.grabbedBy = client
            } else {
                guard s.grabbedBy == client else { return .failure(EINVAL) }
                s.grabbedBy = nil
            }
            return .success()
        case 0x91: // EVIOCREVOKE
            guard argument == 0 else { return .failure(EINVAL) }
            s.revoked.insert(client)
            if s.grabbedBy == client { s.grabbedBy = nil }
            return .success()
        case 0xa0: // EVIOCSCLOCKID
            guard input.count >= 4 else { return .failure(EFAULT) }
            let clock = input.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            guard clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC || clock == CLOCK_BOOTTIME else {
                return .failure(EINVAL)
            }
            s.clocks[client] = clock
            return .success()
        default:
            return .failure(EINVAL)
        }
    }

    /// A bitmap answer: `BITS_TO_LONGS(maxBit)` longs, cut at `size`; the
    /// result is the number of bytes copied (`bits_to_user`).
    private static func bitmapAnswer(_ words: [UInt64], maxBit: UInt16, size: Int) -> Answer {
        let longs = (Int(maxBit) + 63) / 64
        var all: [UInt8] = []
        for i in 0..<max(longs, 1) { all += bytes(of: i < words.count ? words[i] : 0) }
        let copied = Array(all.prefix(size))
        return .success(copied.count, copied)
    }

    private static func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
}
