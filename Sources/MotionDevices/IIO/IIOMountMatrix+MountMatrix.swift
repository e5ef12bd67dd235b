// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import MotionCore

extension MountMatrix {
    /// The matrix an IIO driver reported (`IIOMountMatrix` is libiio's side of
    /// the same text form; this is where the two meet).
    public init(_ matrix: IIOMountMatrix) {
        let r = matrix.rows
        self.init(Vector3(r[0][0], r[0][1], r[0][2]), Vector3(r[1][0], r[1][1], r[1][2]), Vector3(r[2][0], r[2][1], r[2][2]))
    }
}
