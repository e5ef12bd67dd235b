// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The linear systems the calibration fits solve: up to nine unknowns, on
/// the stack, so a fit can run on a thread that must not allocate.
enum SmallLinearSystem {
    /// M·x = b for the `size`×`size` matrix M (row by row, nine to a row:
    /// entry (i, j) at 9·i + j), by Gaussian elimination with partial
    /// pivoting; nil when M is singular against its largest diagonal entry.
    static func solve(_ m: InlineArray<81, Double>, _ b: InlineArray<9, Double>, size n: Int) -> InlineArray<9, Double>? {
        precondition(n >= 1 && n <= 9)
        var a = m, r = b
        var scale = 0.0
        for i in 0 ..< n { scale = max(scale, abs(m[10 * i])) }
        guard scale > 0 else { return nil }
        for column in 0 ..< n {
            var pivot = column
            for row in column + 1 ..< n where abs(a[9 * row + column]) > abs(a[9 * pivot + column]) { pivot = row }
            guard abs(a[9 * pivot + column]) > 1e-13 * scale else { return nil }
            if pivot != column {
                for j in 0 ..< n {
                    let t = a[9 * pivot + j]; a[9 * pivot + j] = a[9 * column + j]; a[9 * column + j] = t
                }
                let t = r[pivot]; r[pivot] = r[column]; r[column] = t
            }
            for row in column + 1 ..< n {
                let f = a[9 * row + column] / a[9 * column + column]
                for j in column ..< n { a[9 * row + j] -= f * a[9 * column + j] }
                r[row] -= f * r[column]
            }
        }
        var x = InlineArray<9, Double>(repeating: 0)
        for row in (0 ..< n).reversed() {
            var s = r[row]
            for j in row + 1 ..< n { s -= a[9 * row + j] * x[j] }
            x[row] = s / a[9 * row + row]
        }
        return x
    }
}
