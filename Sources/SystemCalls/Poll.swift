// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC
import CSystemCalls

/// What `poll` reports for a descriptor (`POLLIN`, `POLLOUT`, …).
public struct PollEvents: OptionSet, Sendable, Hashable {
    public var rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Data can be read (`POLLIN`).
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Data can be written (`POLLOUT`).
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// An error condition (`POLLERR`; reported whether asked for or not).
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The other end hung up, or the device went away (`POLLHUP`).
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// The descriptor is not open (`POLLNVAL`).
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))

    /// Hung up, in error or not open, with nothing to read.
    public var isDead: Bool { !contains(.readable) && !intersection([.error, .hangUp, .invalid]).isEmpty }
}

/// Waiting on several descriptors at once. The entries live in memory the
/// caller allocated once, so a wait allocates nothing.
public enum Poll {
    /// Fills an entry: wait on `descriptor` for `events`.
    @inlinable
    public static func entry(_ descriptor: FileDescriptor, _ events: PollEvents) -> pollfd {
        pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0)
    }

    /// What an entry reported after `wait`.
    @inlinable
    public static func returned(_ entry: pollfd) -> PollEvents { PollEvents(rawValue: entry.revents) }

    /// Waits up to `timeoutNanoseconds` (negative: for ever) until one of
    /// `entries` is ready; how many are. To the nanosecond, so a wait to a
    /// deadline ends at it rather than at the millisecond before. EINTR is
    /// retried (the whole timeout again) unless `retryOnInterrupt` is false.
    /// The corresponding C function is `ppoll`.
    @inlinable
    public static func wait(_ entries: UnsafeMutableBufferPointer<pollfd>, timeoutNanoseconds: Int64,
                            retryOnInterrupt: Bool = true) -> Result<Int, Errno> {
        valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
            csc_poll_nanoseconds(entries.baseAddress, nfds_t(entries.count), timeoutNanoseconds)
        }.map(Int.init)
    }

    /// `wait` with the timeout in milliseconds (negative: for ever), as `poll` takes it.
    @inlinable
    public static func wait(_ entries: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32,
                            retryOnInterrupt: Bool = true) -> Result<Int, Errno> {
        wait(entries, timeoutNanoseconds: nanoseconds(timeoutMilliseconds), retryOnInterrupt: retryOnInterrupt)
    }

    /// Milliseconds as nanoseconds, a negative timeout (for ever) kept negative.
    @inlinable
    public static func nanoseconds(_ milliseconds: Int32) -> Int64 {
        milliseconds < 0 ? -1 : Int64(milliseconds) * 1_000_000
    }
}

extension FileDescriptor {
    /// Waits up to `timeoutNanoseconds` (negative: for ever) for `events`
    /// on this descriptor alone; what it reported, empty on timeout.
    /// The corresponding C function is `ppoll`.
    public func wait(for events: PollEvents, timeoutNanoseconds: Int64,
                     retryOnInterrupt: Bool = true) -> Result<PollEvents, Errno> {
        var entry = Poll.entry(self, events)
        return withUnsafeMutablePointer(to: &entry) { pointer in
            Poll.wait(UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutNanoseconds: timeoutNanoseconds,
                      retryOnInterrupt: retryOnInterrupt)
        }.map { _ in Poll.returned(entry) }
    }

    /// `wait(for:timeoutNanoseconds:)` with the timeout in milliseconds (negative: for ever).
    public func wait(for events: PollEvents, timeoutMilliseconds: Int32,
                     retryOnInterrupt: Bool = true) -> Result<PollEvents, Errno> {
        wait(for: events, timeoutNanoseconds: Poll.nanoseconds(timeoutMilliseconds), retryOnInterrupt: retryOnInterrupt)
    }
}
