// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization
import LibC

/// SIGINT, SIGTERM and SIGHUP turned into a flag, for a program that must
/// put devices back before it exits (`monitor` with a sensor's buffer
/// enabled, the Sense HAT's matrix with its LEDs lit): the default action
/// would kill it first.
public enum StopSignals {
    private static let requested = Atomic<Bool>(false)

    /// Installs the handlers and lets the signals through (a parent may have
    /// left them blocked).
    public static func install() {
        requested.store(false, ordering: .relaxed)   // initialise before any handler can run
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            SignalActions.install(signal, { _ in StopSignals.requested.store(true, ordering: .relaxed) })
        }
        SignalActions.unblock([SIGINT, SIGTERM, SIGHUP])
    }

    /// Whether one of them arrived since `install`. Any thread.
    public static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
