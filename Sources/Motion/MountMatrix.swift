import IIO

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

    /// Parses the text form; nil when it is not nine numbers in three rows.
    /// The one parser is IIO's (the kernel's attribute); udev's property has the same form.
    public init?(parsing text: some StringProtocol) {
        guard let parsed = IIOMountMatrix(attributeText: String(text.trimmingCharacters(in: " \t\n"))) else { return nil }
        self.init(parsed)
    }

    /// The matrix an IIO driver reported.
    public init(_ matrix: IIOMountMatrix) {
        let r = matrix.rows
        self.init(Vector3(r[0][0], r[0][1], r[0][2]), Vector3(r[1][0], r[1][1], r[1][2]), Vector3(r[2][0], r[2][1], r[2][2]))
    }

    /// The chip's vector `v` in the board's frame.
    @inlinable
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(rows.0.dot(v), rows.1.dot(v), rows.2.dot(v))
    }

    public var isIdentity: Bool { self == .identity }

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
    func trimmingCharacters(in set: String) -> Substring {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return s
    }
}
