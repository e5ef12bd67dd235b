// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// How a source is doing, in one value: why it stopped, why it waits, how it
/// reads now if that changed, and what it counted. A source gives it whole
/// (`MotionSource.health`), so no reader can see one count and miss another,
/// and no source can leave one out.
///
/// Reading it may take a lock (the texts): read it when
/// `MotionSource.statusChanges` has moved, or off the hot path.
public struct SourceHealth: Sendable, Equatable {
    /// Why the source stopped producing on its own (device unplugged, no
    /// data), or nil while it is fine.
    public var failure: String?
    /// Why no samples come for now, while the source waits for the device to
    /// come back (a controller switched off); nil when all is well.
    public var interruption: String?
    /// How the source reads now, when it had to change that while running
    /// ("the data-ready interrupt never fired …: polling instead"); nil otherwise.
    public var notice: String?
    /// Readings refused as impossible (see `SamplePlausibility`).
    public var rejected: Int
    /// Reads made again after an error a glitching bus gives.
    public var retried: Int
    /// Samples dropped because every try to read them failed.
    public var failedSamples: Int

    public init(failure: String?, interruption: String?, notice: String?, rejected: Int, retried: Int, failedSamples: Int) {
        self.failure = failure
        self.interruption = interruption
        self.notice = notice
        self.rejected = rejected
        self.retried = retried
        self.failedSamples = failedSamples
    }

    /// A source with nothing to report: no device that can fail (the
    /// simulated board), or none yet.
    public static let fine = SourceHealth(failure: nil, interruption: nil, notice: nil, rejected: 0, retried: 0, failedSamples: 0)
}
