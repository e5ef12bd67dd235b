// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// How a sensor is mounted relative to the board: a 3×3 matrix taking the
/// chip's axes to the board's (the kernel's and udev's "mount matrix").
///
/// Text form, as in sysfs `mount_matrix`/`in_accel_mount_matrix` and udev's
/// `ACCEL_MOUNT_MATRIX`: `"x1, y1, z1; x2, y2, z2; x3, y3, z3"`, rows first.
/// Board = M × chip.
public struct MountMatrix: Sendable, Equatable, CustomStringConvertible {
    public var rows: (Vector3, Vector3, Vector3)

    public init(_ r0: Vector3, _ r1: Vector3, _ r2: Vector3) { rows = (r0, r1, r2) }

    public static let identity = MountMatrix(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// Parses the text form; nil unless it is three `;`-separated rows of
    /// three `,`-separated finite numbers (blanks around each allowed).
    public init?(parsing text: some StringProtocol) {
        let rowTexts = text.trimmingCharacters(in: " \t\n").split(separator: ";", omittingEmptySubsequences: false)
        var values: [Double] = []
        for rowText in rowTexts {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else { return nil }
            for cell in cells {
                guard let value = Double(cell.trimmingCharacters(in: " \t")), value.isFinite else { return nil }
                values.append(value)
            }
        }
        guard values.count == 9 else { return nil }
        self.init(Vector3(values[0], values[1], values[2]), Vector3(values[3], values[4], values[5]),
                  Vector3(values[6], values[7], values[8]))
    }

    /// The chip's vector `v` in the board's frame.
    @inlinable
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(rows.0.dot(v), rows.1.dot(v), rows.2.dot(v))
    }

    public var isIdentity: Bool { self == .identity }

    /// The determinant: +1 for a rotation, -1 for a rotation with a mirror
    /// (udev's hwdb holds such entries: a chip mounted face down on a board
    /// whose axes the driver reports mirrored), near 0 for a matrix that
    /// flattens an axis away.
    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// Whether the matrix loses a direction (determinant near 0): readings
    /// turned by it could never show some tilts, so it is refused.
    public var isSingular: Bool { abs(determinant) < 1e-3 }

    /// Whether it only turns (and perhaps mirrors) the axes: rows of unit
    /// length at right angles, as every real mounting is.
    public var isTurnOrMirror: Bool {
        let (a, b, c) = rows
        let tolerance = 1e-3
        return abs(a.length - 1) < tolerance && abs(b.length - 1) < tolerance && abs(c.length - 1) < tolerance
            && abs(a.dot(b)) < tolerance && abs(a.dot(c)) < tolerance && abs(b.dot(c)) < tolerance
    }

    /// `self` after `other`: the matrix that turns by `other`, then by `self`.
    public func composed(after other: MountMatrix) -> MountMatrix {
        let columns = (other.column(0), other.column(1), other.column(2))
        func row(_ r: Vector3) -> Vector3 { Vector3(r.dot(columns.0), r.dot(columns.1), r.dot(columns.2)) }
        return MountMatrix(row(rows.0), row(rows.1), row(rows.2))
    }

    /// The matrix that undoes this one; nil when it is singular.
    public var inverse: MountMatrix? {
        guard !isSingular else { return nil }
        let (a, b, c) = rows
        // The adjugate's rows are the cross products of the columns' pairs, transposed.
        let d = determinant
        let r0 = b.cross(c), r1 = c.cross(a), r2 = a.cross(b)
        return MountMatrix(Vector3(r0.x, r1.x, r2.x) / d, Vector3(r0.y, r1.y, r2.y) / d, Vector3(r0.z, r1.z, r2.z) / d)
    }

    /// Column `i` (0, 1, 2): where the chip's axis `i` points on the board.
    public func column(_ i: Int) -> Vector3 {
        switch i {
        case 0: Vector3(rows.0.x, rows.1.x, rows.2.x)
        case 1: Vector3(rows.0.y, rows.1.y, rows.2.y)
        default: Vector3(rows.0.z, rows.1.z, rows.2.z)
        }
    }

    public static func == (a: MountMatrix, b: MountMatrix) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    public var description: String {
        func row(_ v: Vector3) -> String { "\(format(v.x)), \(format(v.y)), \(format(v.z))" }
        func format(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
        return "\(row(rows.0)); \(row(rows.1)); \(row(rows.2))"
    }
}

extension StringProtocol {
    /// Drops leading and trailing characters found in `set` (no Foundation needed).
    package func trimmingCharacters(in set: String) -> Substring {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return s
    }
}
