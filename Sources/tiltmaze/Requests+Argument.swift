// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import MotionDevices
import Displays
import Render

extension SensorRequest: ExpressibleByArgument {
    public static var allValueStrings: [String] { forms }
    public static var defaultCompletionKind: CompletionKind { .list(forms) }
}

extension DisplaySelection: ExpressibleByArgument {
    /// What help shows as the default: the argument, not the value's dump.
    public var defaultValueDescription: String { argument }
    public static var allValueStrings: [String] { forms }
    public static var defaultCompletionKind: CompletionKind { .list(forms) }
}
