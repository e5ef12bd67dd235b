// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices

@Suite("Choosing a mount matrix: singular ones passed over, mirrored ones used")
struct MountMatrixLookupTests {
    let udev = ChosenMountMatrix.Origin.udev(node: "/dev/iio:device0")
    let driver = ChosenMountMatrix.Origin.driver(attribute: "in_accel_mount_matrix")

    @Test("a singular udev matrix gives way to the driver's, and the choice names it with the fix")
    func singularPassedOver() {
        let flat = MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, 0")!
        let turned = MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")!
        let chosen = MountMatrixLookup.first([(flat, udev), (turned, driver)], otherwise: ChosenMountMatrix(matrix: .identity, origin: .identity))
        #expect(chosen.matrix == turned && chosen.origin == driver)
        #expect(chosen.description == "0, -1, 0; 1, 0, 0; 0, 0, 1 (in_accel_mount_matrix); ignored: 1, 0, 0; 0, 1, 0; 0, 0, 0 (udev ACCEL_MOUNT_MATRIX of /dev/iio:device0) is singular (it would flatten an axis away): fix the hwdb entry or device tree")
    }

    @Test("with every candidate singular, the fallback, still naming what was ignored")
    func allSingular() {
        let flat = MountMatrix(parsing: "0, 0, 0; 0, 1, 0; 0, 0, 1")!
        let chosen = MountMatrixLookup.first([(flat, udev)], otherwise: ChosenMountMatrix(matrix: .identity, origin: .identity))
        #expect(chosen.matrix == .identity && chosen.ignored != nil)
    }

    @Test("a mirrored matrix (determinant -1, as 8 of the hwdb's 23 are) is a real mounting: used as it is")
    func mirroredUsed() {
        let mirrored = MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, -1")!
        let chosen = MountMatrixLookup.first([(mirrored, udev)], otherwise: ChosenMountMatrix(matrix: .identity, origin: .identity))
        #expect(chosen.matrix == mirrored && chosen.ignored == nil)
    }
}
