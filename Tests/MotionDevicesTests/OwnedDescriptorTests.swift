// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import SystemCalls
import SystemPackage

/// An owned descriptor is closed exactly when its owner lets it go, and not
/// when it hands it on. Judged through a pipe: the read end sees end of file
/// once the write end is closed, which no other test's descriptors can fake
/// (a closed number may be reused at once by a test beside this one).
@Suite("Owned descriptor")
struct OwnedDescriptorTests {
    /// What the read end gets now: the byte written, or nil at end of file.
    static func readByte(_ reader: FileDescriptor) throws -> UInt8? {
        var byte: UInt8 = 0
        let count = try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) }
        return count == 1 ? byte : nil
    }

    @Test("letting it go closes it; close() closes it and says so")
    func closes() throws {
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close() }
        do { _ = OwnedDescriptor(writer) }
        #expect(try Self.readByte(reader) == nil)

        let (reader2, writer2) = try FileDescriptor.pipe()
        defer { try? reader2.close() }
        let owned = OwnedDescriptor(writer2)
        try owned.close()
        #expect(try Self.readByte(reader2) == nil)
    }

    @Test("relinquish hands it on open, and lending does not close it")
    func relinquishes() throws {
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close() }
        let owned = OwnedDescriptor(writer)
        let written = try owned.withDescriptor { fd throws(Errno) in
            do { return try fd.writeAll([7]) } catch let error as Errno { throw error } catch { throw .ioError }
        }
        #expect(written == 1)
        let handed = owned.relinquish()
        _ = try handed.writeAll([9])
        #expect(try Self.readByte(reader) == 7)
        #expect(try Self.readByte(reader) == 9)
        try handed.close()
        #expect(try Self.readByte(reader) == nil)
    }

    /// A call on `owned` that fails with `errno`, as a lent call sees it.
    static func failingCall(_ errno: Errno) throws {
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close() }
        let owned = OwnedDescriptor(writer)
        _ = owned.withDescriptor { _ -> Result<Int, Errno> in .failure(errno) }
    }

    // Exit tests capture nothing: one each.
    @Test("a call that fails with EBADF on an owned descriptor traps (a bug, not news)")
    func trapsOnBadDescriptor() async {
        await #expect(processExitsWith: .failure) { try OwnedDescriptorTests.failingCall(.badFileDescriptor) }
    }

    @Test("a call that fails with EFAULT on an owned descriptor traps")
    func trapsOnBadAddress() async {
        await #expect(processExitsWith: .failure) { try OwnedDescriptorTests.failingCall(.badAddress) }
    }

    @Test("any other errno is handed back")
    func handsOtherErrorsBack() throws {
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close() }
        let owned = OwnedDescriptor(writer)
        let result = owned.withDescriptor { _ -> Result<Int, Errno> in .failure(.wouldBlock) }
        #expect(result == .failure(.wouldBlock))
    }
}
