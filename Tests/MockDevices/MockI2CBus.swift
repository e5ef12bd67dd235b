// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CUmockdev
import Synchronization
import LibC

/// A fake i2c-dev bus (`/dev/i2c-N`, `/sys/class/i2c-dev/i2c-N`) whose
/// chips are register files answered through umockdev's ioctl emulation:
/// `I2C_FUNCS`, `I2C_SLAVE` (per open descriptor) and the `I2C_SMBUS`
/// byte-data and I²C-block transfers, as the kernel's i2c-dev passes them
/// to an adapter.
///
/// An LSM9DS1 (`addLSM9DS1`) is more than registers: it makes a sample every
/// period of the rate its CTRL_REG1_G sets, keeping only the newest (each
/// sample's accelerometer x is its serial number, so a reader that reads one
/// twice or skips one shows it), sets its status bits, and clears each when
/// that output block is read, as the chip does with block data update on.
/// Its magnetometer likewise makes readings at the rate CTRL_REG1_M sets
/// while CTRL_REG3_M says continuous (x the serial, y 1000 and z -2000
/// counts), sets ZYXDA and clears it when read; a multi-byte read steps
/// through its registers only with the register number's top bit set, as on
/// the chip (without it every byte comes from the first register).
public final class MockI2CBus: Sendable {
    public let number: Int
    public let name: String
    private let state = Mutex(State())

    struct Chip {
        var registers = [UInt8](repeating: 0, count: 256)
        var isLSM9DS1 = false
        var isMagnetometer = false
        /// The gyroscope's z carries the serial too, so a sample put together from two moments shows.
        var serialInGyroscope = false
        /// When the next sample is due, and how many were made.
        var nextSample: Int64 = 0
        var made = 0
        /// How many times its output block was read (the magnetometer's OUT_X_L_M onwards).
        var outputsRead = 0
        /// The sample whose gyroscope block each client read last.
        var gyroscopeRead: [UInt: Int] = [:]
        /// Accelerometer blocks read from a later sample than the gyroscope
        /// block before them, with no failed transfer between: the chip made
        /// a sample between the two reads.
        var straddles = 0

        /// Makes the samples whose time has come at `period`, keeping only
        /// the newest (the caller writes it); whether any was made.
        mutating func makeSamplesDue(period: Int64) -> Bool {
            let now = MockI2CBus.now()
            var madeAny = false
            while nextSample + period <= now {
                nextSample += period
                made += 1
                madeAny = true
            }
            return madeAny
        }

        /// An int16 into two registers, little-endian, as the chip's outputs are.
        mutating func put(_ register: Int, _ value: Int16) {
            registers[register] = UInt8(truncatingIfNeeded: value)
            registers[register + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
    }

    struct State {
        var chips: [UInt8: Chip] = [:]
        var selected: [UInt: UInt8] = [:]
        var claimed: Set<UInt8> = []
        var unplugged = false
        var refusedWrites: Set<UInt8> = []
        /// Set by `turnMagnetometer`: when the turning began, and the hard iron in counts.
        var turning: (start: Int64, offset: SIMD3<Double>)?
        var faults = FaultPlan()
        /// SMBus transfers asked of this bus, answered or not.
        var transfers = 0
    }

    /// Transfers made to fail as a glitching bus fails them: the next
    /// `count`, or each with probability `rate` (a seeded generator, so a
    /// run can be repeated), with `errno`. A failed read has already been
    /// answered by the chip (its status bits cleared as by a good read: the
    /// bytes were lost on the way back), the harder case for a reader; a
    /// failed write changes nothing.
    struct FaultPlan {
        var errno: Int32 = EREMOTEIO
        var next = 0
        var rate = 0.0
        var random: UInt64 = 0x9e37_79b9_7f4a_7c15
        var injected = 0

        mutating func strikes() -> Bool {
            if next > 0 {
                next -= 1
                injected += 1
                return true
            }
            guard rate > 0 else { return false }
            // xorshift64*: plenty for spreading faults, and the same every run.
            random ^= random >> 12; random ^= random << 25; random ^= random >> 27
            let draw = Double((random &* 0x2545_f491_4f6c_dd1d) >> 11) / Double(1 << 53)
            if draw < rate {
                injected += 1
                return true
            }
            return false
        }
    }

    /// Where the adapter sits in sysfs ("/devices/platform/soc/fe804000.i2c").
    public let parent: String
    /// The controller's device-tree node its `of_node` points at, nil for none.
    public let deviceTreeNode: String?

    public init(number: Int = 1, name: String = "bcm2835 (i2c@7e804000)", parent: String = "/devices/platform/soc/fe804000.i2c",
                deviceTreeNode: String? = nil) {
        self.number = number
        self.name = name
        self.parent = parent
        self.deviceTreeNode = deviceTreeNode
    }

    public var node: String { "/dev/i2c-\(number)" }

    /// An LSM9DS1 at `address` (0x6a) with its magnetometer at `magnetometer`
    /// (0x1c); with `serialInGyroscope`, each sample's gyroscope z is its
    /// serial number as well as its accelerometer x.
    public func addLSM9DS1(address: UInt8 = 0x6a, magnetometer: UInt8? = 0x1c, serialInGyroscope: Bool = false) {
        state.withLock {
            var chip = Chip()
            chip.serialInGyroscope = serialInGyroscope
            chip.registers[0x0f] = 0x68
            chip.registers[0x22] = 0x04  // CTRL_REG8 after reset: IF_ADD_INC
            chip.registers[0x1e] = 0x38
            chip.registers[0x1f] = 0x38
            chip.isLSM9DS1 = true
            $0.chips[address] = chip
            if let magnetometer {
                var mag = Chip()
                mag.registers[0x0f] = 0x3d
                mag.registers[0x22] = 0x03  // CTRL_REG3_M after reset: power-down
                mag.isMagnetometer = true
                $0.chips[magnetometer] = mag
            }
        }
    }

    /// A chip that answers with plain registers.
    public func addChip(_ address: UInt8, registers: [UInt8: UInt8]) {
        state.withLock {
            var chip = Chip()
            for (r, v) in registers { chip.registers[Int(r)] = v }
            $0.chips[address] = chip
        }
    }

    /// From now on the magnetometer reads a field that turns through every
    /// direction instead of its serial numbers: the Earth's (45 µT, dipping
    /// 63°, 3,200 counts) seen from a board whose heading goes round every
    /// 9 s while it rolls (±70°) and pitches (±55°) at other rates, as a
    /// hand turns a board through a figure of eight, plus `offset` counts
    /// (chip axes; 71.4 counts a µT) of hard iron riding with the board.
    public func turnMagnetometer(offset: SIMD3<Double>) {
        state.withLock { $0.turning = (MockI2CBus.now(), offset) }
    }

    /// The turning field at `seconds` into the turn, counts, chip axes.
    static func turningField(at seconds: Double, offset: SIMD3<Double>) -> SIMD3<Double> {
        let earth = SIMD3<Double>(20.4, 0, -40.1) * (1 / 0.014)
        // Board → earth is yaw · roll · pitch, so earth → board is their inverses in the other order.
        func rotate(_ v: SIMD3<Double>, axis: Int, by angle: Double) -> SIMD3<Double> {
            let c = cos(angle), s = sin(angle)
            switch axis {
            case 0: return SIMD3(v.x, c * v.y - s * v.z, s * v.y + c * v.z)
            case 1: return SIMD3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z)
            default: return SIMD3(c * v.x - s * v.y, s * v.x + c * v.y, v.z)
            }
        }
        var v = rotate(earth, axis: 2, by: -2 * .pi / 9 * seconds)
        v = rotate(v, axis: 0, by: -1.22 * sin(0.9 * seconds))
        v = rotate(v, axis: 1, by: -0.96 * sin(0.53 * seconds))
        return v + offset
    }

    /// A kernel driver holds `address`: selecting it fails with EBUSY.
    public func claim(_ address: UInt8) { state.withLock { _ = $0.claimed.insert(address) } }

    /// Writes to `register` (of any chip) fail with EIO, as a write the chip does not acknowledge.
    public func refuseWrites(to register: UInt8) { state.withLock { _ = $0.refusedWrites.insert(register) } }

    /// The next `count` transfers fail with `errno`.
    public func failNextTransfers(_ count: Int, errno: Int32 = EREMOTEIO) {
        state.withLock { $0.faults.next = count; $0.faults.errno = errno }
    }

    /// From now on each transfer fails with probability `rate`, with `errno`.
    public func failTransfers(rate: Double, errno: Int32 = EAGAIN) {
        state.withLock { $0.faults.rate = rate; $0.faults.errno = errno }
    }

    /// SMBus transfers asked of this bus so far: 0 for a bus nobody read.
    public var transfersAsked: Int { state.withLock { $0.transfers } }

    /// Transfers made to fail so far.
    public var injectedFailures: Int { state.withLock { $0.faults.injected } }

    /// The board comes off: every transfer fails as an unacknowledged address does (EREMOTEIO).
    public func unplug() { state.withLock { $0.unplugged = true } }

    /// A register of the chip at `address`.
    public func register(_ address: UInt8, _ register: UInt8) -> UInt8 {
        state.withLock { $0.chips[address]?.registers[Int(register)] ?? 0 }
    }

    /// Readings the magnetometer at `address` has had read: how far a
    /// reader has got, whatever the load on the machine.
    public func magnetometerReadingsRead(_ address: UInt8 = 0x1c) -> Int {
        state.withLock { $0.chips[address]?.outputsRead ?? 0 }
    }

    /// Times a reader took the accelerometer's block from a later sample
    /// than the gyroscope's it read just before (it was held up between
    /// the two transfers while the chip made a sample): the chip's two
    /// blocks are read in two transfers, and nothing on the chip ties them.
    public func straddles(_ address: UInt8 = 0x6a) -> Int { state.withLock { $0.chips[address]?.straddles ?? 0 } }

    /// Samples the LSM9DS1 at `address` has made.
    public func samplesMade(_ address: UInt8 = 0x6a) -> Int { state.withLock { $0.chips[address]?.made ?? 0 } }

    public var umockdevDescription: String {
        var text = ["P: \(parent)/i2c-\(number)/i2c-dev/i2c-\(number)", "N: i2c-\(number)",
                    "E: DEVNAME=\(node)", "E: SUBSYSTEM=i2c-dev", "E: MAJOR=89", "E: MINOR=\(number)",
                    "A: name=\(name)\\n", "A: dev=89:\(number)\\n"].joined(separator: "\n") + "\n\n"
        if let deviceTreeNode {
            // The adapter itself, as the kernel links it to its controller's node.
            let up = String(repeating: "../", count: parent.split(separator: "/").count + 1)
            text += ["P: \(parent)/i2c-\(number)", "E: SUBSYSTEM=i2c", "A: name=\(name)\\n",
                     "L: of_node=\(up)firmware/devicetree/base\(deviceTreeNode)"].joined(separator: "\n") + "\n\n"
        }
        return text
    }

    // MARK: What the adapter answers

    enum Outcome { case ok(Int32), failed(Int32) }

    func selectAddress(_ address: UInt8, client: UInt) -> Outcome {
        state.withLock {
            if $0.claimed.contains(address) { return .failed(EBUSY) }
            $0.selected[client] = address
            return .ok(0)
        }
    }

    /// One SMBus transfer: `data` is the union (block[0] the length).
    func transfer(client: UInt, read: Bool, command: UInt8, size: UInt32, data: UnsafeMutablePointer<UInt8>) -> Outcome {
        state.withLock { state -> Outcome in
            state.transfers += 1
            guard let address = state.selected[client] else { return .failed(EINVAL) }
            if state.unplugged { return .failed(EREMOTEIO) }
            guard var chip = state.chips[address] else { return .failed(ENXIO) }
            let fault = state.faults.strikes()
            if fault && !read { return .failed(state.faults.errno) }
            defer { state.chips[address] = chip }
            if chip.isLSM9DS1 { Self.advance(&chip) }
            if chip.isMagnetometer { Self.advanceMagnetometer(&chip, turning: state.turning) }
            switch (size, read) {
            case (2, true):   // I2C_SMBUS_BYTE_DATA
                data[0] = chip.registers[Int(command)]
            case (2, false):
                if state.refusedWrites.contains(command) { return .failed(EIO) }
                chip.registers[Int(command)] = data[0]
                if chip.isLSM9DS1 && command == 0x10 { chip.nextSample = MockI2CBus.now() }
                if chip.isMagnetometer && command == 0x22 { chip.nextSample = MockI2CBus.now() }
            case (8, true):   // I2C_SMBUS_I2C_BLOCK_DATA
                let count = Int(data[0])
                if chip.isMagnetometer {
                    let first = Int(command & 0x7f), steps = command & 0x80 != 0
                    for i in 0 ..< count { data[1 + i] = chip.registers[(first + (steps ? i : 0)) & 0x7f] }
                    if first == 0x28 {
                        chip.registers[0x27] &= ~0x08
                        chip.outputsRead += 1
                    }
                    if fault { for i in 0 ..< count { data[1 + i] = 0xa5 } }
                    return fault ? .failed(state.faults.errno) : .ok(0)
                }
                for i in 0 ..< count { data[1 + i] = chip.registers[(Int(command) + i) & 0xff] }
                if chip.isLSM9DS1 {
                    if command == 0x18 {
                        chip.registers[0x17] &= ~0x02; chip.registers[0x27] &= ~0x02
                        chip.gyroscopeRead[client] = chip.made
                    }
                    if command == 0x28 {
                        chip.registers[0x17] &= ~0x01; chip.registers[0x27] &= ~0x01
                        if let gyroscope = chip.gyroscopeRead[client], gyroscope != chip.made { chip.straddles += 1 }
                    }
                }
            default:
                return .failed(EOPNOTSUPP)
            }
            guard fault else { return .ok(0) }
            // A reader that went on after a failure to join blocks of two samples is not excused as a straddle.
            chip.gyroscopeRead[client] = nil
            // What a failed read leaves in the caller's buffer is not the chip's.
            if read && size == 2 { data[0] = 0xa5 }
            if read && size == 8 { for i in 0 ..< Int(data[0]) { data[1 + i] = 0xa5 } }
            return .failed(state.faults.errno)
        }
    }

    /// Makes the samples due by now, keeping only the newest.
    static func advance(_ chip: inout Chip) {
        let code = chip.registers[0x10] >> 5
        let rates: [UInt8: Double] = [1: 14.9, 2: 59.5, 3: 119, 4: 238, 5: 476, 6: 952]
        guard let rate = rates[code] else { return }
        guard chip.makeSamplesDue(period: Int64(1e9 / rate)) else { return }
        // Accelerometer x: the serial; z: about 1 g at ±8 g; gyroscope x: a steady turn.
        chip.put(0x28, Int16(truncatingIfNeeded: chip.made)); chip.put(0x2a, 0); chip.put(0x2c, 4098)
        chip.put(0x18, 1000); chip.put(0x1a, 0); chip.put(0x1c, chip.serialInGyroscope ? Int16(truncatingIfNeeded: chip.made) : 0)
        chip.registers[0x17] |= 0x03
        chip.registers[0x27] |= 0x03
    }

    /// The magnetometer's readings due by now (DO in CTRL_REG1_M, running
    /// while MD in CTRL_REG3_M is 00), keeping only the newest.
    static func advanceMagnetometer(_ chip: inout Chip, turning: (start: Int64, offset: SIMD3<Double>)?) {
        guard chip.registers[0x22] & 0x03 == 0 else { return }
        let rates = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80]
        guard chip.makeSamplesDue(period: Int64(1e9 / rates[Int(chip.registers[0x20] >> 2 & 0x07)])) else { return }
        if let turning {
            let field = turningField(at: Double(chip.nextSample - turning.start) / 1e9, offset: turning.offset)
            chip.put(0x28, Int16(field.x.rounded())); chip.put(0x2a, Int16(field.y.rounded())); chip.put(0x2c, Int16(field.z.rounded()))
        } else {
            chip.put(0x28, Int16(truncatingIfNeeded: chip.made)); chip.put(0x2a, 1000); chip.put(0x2c, -2000)
        }
        chip.registers[0x27] |= 0x08
    }

    static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    func attach(to testbed: UnsafeMutablePointer<UMockdevTestbed>) throws(TestbedError) {
        try UmockdevIoctlGlue.attach(self, to: node, in: testbed,
                                     signals: [("handle-ioctl", unsafeBitCast(handleI2CIoctl, to: GCallback.self))])
    }
}

extension Testbed {
    public func add(_ bus: MockI2CBus) throws(TestbedError) {
        try bus.attach(to: handle)
        try add(description: bus.umockdevDescription)
    }
}

/// `handle-ioctl`: I2C_FUNCS, I2C_SLAVE, I2C_SMBUS; anything else ENOTTY.
private let handleI2CIoctl: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                            UnsafeMutableRawPointer?) -> gboolean = { _, clientPointer, userData in
    guard let clientPointer, let userData else { return 0 }
    guard let bus = Unmanaged<AnyObject>.fromOpaque(userData).takeUnretainedValue() as? MockI2CBus else { return 0 }
    let client = clientPointer.assumingMemoryBound(to: UMockdevIoctlClient.self)
    let clientID = UInt(bitPattern: clientPointer)
    let request = UInt(umockdev_ioctl_client_get_request(client))
    guard let arg = umockdev_ioctl_client_get_arg(client) else {
        umockdev_ioctl_client_complete(client, -1, EFAULT)
        return 1
    }
    func finish(_ outcome: MockI2CBus.Outcome) {
        switch outcome {
        case .ok(let value): umockdev_ioctl_client_complete(client, Int(value), 0)
        case .failed(let errno): umockdev_ioctl_client_complete(client, -1, errno)
        }
    }
    func resolve(_ data: UnsafeMutablePointer<UMockdevIoctlData>, _ offset: Int, _ length: Int) -> UnsafeMutablePointer<UMockdevIoctlData>? {
        var error: UnsafeMutablePointer<GError>? = nil
        let resolved = umockdev_ioctl_data_resolve(data, gulong(offset), gsize(length), &error)
        if let error { g_error_free(error) }
        return resolved
    }
    switch request {
    case 0x0705:  // I2C_FUNCS: byte data, I²C block read and write
        guard let out = resolve(arg, 0, 8), let bytes = out.pointee.data else { finish(.failed(EFAULT)); return 1 }
        let functions: UInt = 0x0018_0000 | 0x0C00_0000
        withUnsafeBytes(of: functions) { for i in 0 ..< 8 { bytes[i] = $0[i] } }
        finish(.ok(0))
        umockdev_ioctl_data_unref(out)
    case 0x0703:  // I2C_SLAVE: the address is the argument itself
        guard let raw = arg.pointee.data, arg.pointee.data_len >= Int32(MemoryLayout<UInt>.size) else { finish(.failed(EFAULT)); return 1 }
        let address = UnsafeRawPointer(raw).loadUnaligned(as: UInt.self)
        finish(bus.selectAddress(UInt8(truncatingIfNeeded: address), client: clientID))
    case 0x0720:  // I2C_SMBUS: struct { u8 read_write; u8 command; u32 size; union i2c_smbus_data *data; }
        guard let request = resolve(arg, 0, 16), let header = request.pointee.data else { finish(.failed(EFAULT)); return 1 }
        let read = header[0] == 1, command = header[1]
        let size = UnsafeRawPointer(header + 4).loadUnaligned(as: UInt32.self)
        guard let payload = resolve(request, 8, 34), let data = payload.pointee.data else {
            umockdev_ioctl_data_unref(request)
            finish(.failed(EFAULT))
            return 1
        }
        finish(bus.transfer(client: clientID, read: read, command: command, size: size, data: data))
        umockdev_ioctl_data_unref(payload)
        umockdev_ioctl_data_unref(request)
    default:
        finish(.failed(ENOTTY))
    }
    return 1
}
