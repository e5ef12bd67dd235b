// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The 3×3 matrix an IIO driver reports in `mount_matrix` (or
/// `in_accel_mount_matrix`, `in_mount_matrix`): how the chip's axes sit on
/// the board. Read it with `readAttribute("mount_matrix", as: IIOMountMatrix.self)`.
///
/// Where drivers put it, and what libiio 0.24 makes of it:
/// - `mount_matrix` (shared by all, st_lsm6dsx): a device attribute.
/// - `in_accel_mount_matrix` and `in_anglvel_mount_matrix` (shared by type,
///   inv_mpu6050): the attribute `mount_matrix` of each accel channel.
/// - `in_mount_matrix` (shared by direction, bmi160): libiio mistakes it for
///   a channel `mount` with an attribute `matrix`; read it by file name with
///   `device.readAttribute("in_mount_matrix", as: IIOMountMatrix.self)`.
///
/// (Each driver's choice as seen on the real drivers in the qemu tier,
/// recorded in Tests/Fixtures/kernel/.)
///
/// Only the text form lives here; which attribute (or udev property) wins,
/// and applying it to samples, is policy for `Motion`.
public struct IIOMountMatrix: Hashable, Sendable, IIOAttributeValue {
    /// Rows, each `[x, y, z]`, as the kernel prints them.
    public var rows: [[Double]]

    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "a mount matrix is 3×3")
        self.rows = rows
    }

    /// The identity: the chip's axes are the board's.
    public static let identity = IIOMountMatrix(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// Parses the kernel's form "x1, y1, z1; x2, y2, z2; x3, y3, z3" (also
    /// the form of udev's `ACCEL_MOUNT_MATRIX`).
    public init?(attributeText: String) {
        let rowTexts = attributeText.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else { return nil }
        var rows: [[Double]] = []
        for rowText in rowTexts {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else { return nil }
            var row: [Double] = []
            for cell in cells {
                let trimmed = cell.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
                guard let value = Double(String(trimmed)), value.isFinite else { return nil }
                row.append(value)
            }
            rows.append(row)
        }
        self.rows = rows
    }

    public var attributeText: String {
        rows.map { $0.map { String($0) }.joined(separator: ", ") }.joined(separator: "; ")
    }

    public static var attributeTypeDescription: String { "a mount matrix (\"x1, y1, z1; x2, y2, z2; x3, y3, z3\")" }
}
