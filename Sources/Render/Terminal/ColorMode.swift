// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// How colours reach the terminal: 24-bit SGR codes, or the nearest entry of
/// the xterm 256-colour palette (the Linux text console and older terminals).
public enum ColorMode: Sendable {
    case truecolor
    case palette256

    /// Truecolour when `COLORTERM` says so (`truecolor` or `24bit`, the
    /// de-facto convention); otherwise the 256-colour palette, which every
    /// terminal we target understands, so guessing wrong is never unreadable.
    public static func detect(environment: [String: String]) -> ColorMode {
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": .truecolor
        default: .palette256
        }
    }
}
