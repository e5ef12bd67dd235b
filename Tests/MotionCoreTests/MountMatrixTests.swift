// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("Mount matrix")
struct MountMatrixTests {
    @Test("the kernel's text form parses, spaces and a trailing newline allowed")
    func parses() throws {
        let m = try #require(MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1\n"))
        #expect(m == MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)))
        #expect(MountMatrix(parsing: "1,0,0;0,1,0;0,0,1") == .identity)
        #expect(MountMatrix(parsing: "0.7071, 0.7071, 0; -0.7071, 0.7071, 0; 0, 0, 1") != nil)
    }

    @Test("malformed text is refused", arguments: [
        "", "1, 0, 0; 0, 1, 0", "1, 0; 0, 1, 0; 0, 0, 1", "a, 0, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0", "nan, 0, 0; 0, 1, 0; 0, 0, 1",
    ])
    func malformed(_ text: String) {
        #expect(MountMatrix(parsing: text) == nil)
    }

    @Test("applying it maps chip axes to board axes (board = M × chip)")
    func applies() throws {
        // Chip rotated 90° on the board: chip x points along board -y.
        let m = try #require(MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        #expect(m.apply(Vector3(1, 0, 0)) == Vector3(0, -1, 0))
        #expect(m.apply(Vector3(0, 2, 3)) == Vector3(2, 0, 3))
        #expect(MountMatrix.identity.apply(Vector3(1, 2, 3)) == Vector3(1, 2, 3))
    }

    @Test("it prints back in the kernel's form")
    func description() {
        #expect(MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)).description == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    }

    @Test("a rotation has determinant 1, a mounting with a mirror -1 (udev's hwdb has such entries), a matrix that flattens an axis 0")
    func determinant() {
        #expect(MountMatrix.identity.determinant == 1 && !MountMatrix.identity.isSingular)
        let halfTurn = MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")!
        #expect(halfTurn.determinant == 1)
        let mirrored = MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")!
        #expect(mirrored.determinant == -1 && !mirrored.isSingular)
        let flattened = MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, 0")!
        #expect(flattened.isSingular)
        let twoRowsAlike = MountMatrix(parsing: "0, 1, 0; 0, 1, 0; 0, 0, 1")!
        #expect(twoRowsAlike.isSingular)
    }

    @Test("composing applies the later matrix after the earlier, and the inverse undoes a matrix; a singular one has none")
    func compositionAndInverse() throws {
        let turn = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))     // a quarter turn about z
        let mirror = MountMatrix(Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
        let v = Vector3(1, 2, 3)
        #expect(turn.composed(after: mirror).apply(v) == turn.apply(mirror.apply(v)))
        #expect(mirror.composed(after: turn).apply(v) == mirror.apply(turn.apply(v)))
        let skewed = MountMatrix(Vector3(2, 0, 1), Vector3(0, 0.5, 0), Vector3(1, 0, 3))
        let undo = try #require(skewed.inverse)
        let back = undo.apply(skewed.apply(v))
        #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 2) < 1e-12 && abs(back.z - 3) < 1e-12)
        #expect(turn.inverse == MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)))
        #expect(MountMatrix(Vector3(1, 0, 0), Vector3(2, 0, 0), Vector3(0, 0, 1)).inverse == nil)
    }
}
