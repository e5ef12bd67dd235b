// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import IIO
import LibC
import SystemCalls

/// Prepares one IIO device for buffered capture and remembers what it changed,
/// so `restore()` puts the device back as it was found.
///
/// Order matters to the kernel: the timestamp clock, rate and trigger can
/// only change while the buffer is off, so all of this happens before the
/// buffer is created, and is undone after it is destroyed.
final class IIOCaptureSetup {
    let device: IIODevice
    /// What puts back each attribute (and the trigger) changed, in the order they were changed.
    private var undo: [() -> Void] = []
    private(set) var createdTrigger: HrtimerTrigger?
    /// The rate the device runs at after setup, if it told us.
    private(set) var rate: Double?
    /// The trigger in use, if any (for messages).
    private(set) var triggerName: String?
    /// How scans are paced: the device's data-ready interrupt, an hrtimer,
    /// or its own FIFO (`.none`); nil before `configure`.
    private(set) var pacing: TriggerChoice?

    init(device: IIODevice) { self.device = device }

    /// - Parameter wantedRate: samples per second the game asks for.
    func configure(wantedRate: Double, configfsRoot: String = HrtimerTrigger.defaultConfigfsRoot) throws(IIOError) {
        if Set(device.attributeNames).contains("current_timestamp_clock") {
            try change("current_timestamp_clock", to: "monotonic")
        }
        try configureRate(wantedRate: wantedRate)
        try chooseTrigger(wantedRate: rate ?? wantedRate, configfsRoot: configfsRoot)
    }

    /// The rate alone: what polling a device without a buffer needs too.
    func configureRate(wantedRate: Double) throws(IIOError) {
        // One rate for the device, or one per channel type (bmi160): each set
        // to the slowest offered at or above the wanted rate; the device runs
        // at the slowest of them.
        for place in IIOSamplingRate.find(device) {
            let chosen = place.offer.map { SamplingRateChoice.choose(wantedRate, from: $0) } ?? wantedRate
            let original = trimmed(try place.read())
            if Double(original) != chosen {
                try place.write(Self.format(chosen))
                undo.append { try? place.write(original) }
            }
            let set = place.current ?? chosen
            rate = min(rate ?? set, set)
        }
    }

    private func chooseTrigger(wantedRate: Double, configfsRoot: String) throws(IIOError) {
        guard let choice = TriggerChoice.choose(for: device, configfsRoot: configfsRoot) else {
            throw IIOError(errno: ENODEV, operation: "find a trigger", path: device.attributePath("trigger/current_trigger"),
                           detail: "it has no data-ready trigger and no hrtimer trigger exists or can be made; see hardware.md (hrtimer trigger set-up)")
        }
        pacing = choice
        switch choice {
        case .none:
            return
        case .dataReady(let name):
            try use(trigger: name)
        case .existingHrtimer(let name):
            // Made at boot (udev/tiltmaze-hrtimer.service) and paced by the
            // udev rules; only root may change its rate, for the kernel bounds
            // it at no useful rate. As root: pace it as asked, and put it back
            // after. Otherwise the scans come at its rate, whatever we asked.
            if let trigger = device.context.triggers.first(where: { $0.name == name }) {
                do {
                    try change("sampling_frequency", to: Self.format(wantedRate), on: trigger)
                } catch {
                    if let text = try? trigger.readAttribute("sampling_frequency"), let paced = Double(trimmed(text)), paced > 0 {
                        rate = paced
                    }
                }
            }
            try use(trigger: name)
        case .createHrtimer(let name):
            createdTrigger = try HrtimerTrigger.create(named: name, configfsRoot: configfsRoot)
            // The new trigger is not in this context: set its rate through a fresh one.
            if let fresh = try? IIOContext(), let trigger = fresh.triggers.first(where: { $0.name == name }) {
                try? trigger.writeAttribute("sampling_frequency", Self.format(wantedRate))
            }
            try change("trigger/current_trigger", to: name)
            triggerName = name
        }
    }

    /// Sets the trigger named `name` (one of this context's) through
    /// libiio's trigger calls, which iiod serves too (over the network
    /// `trigger/current_trigger` is no attribute), remembering the one found.
    private func use(trigger name: String) throws(IIOError) {
        guard let trigger = device.context.triggers.first(where: { $0.name == name }) else {
            throw IIOError(errno: ENODEV, operation: "find trigger \(name)", path: device.attributePath("trigger/current_trigger"),
                           detail: "it is not among this context's triggers")
        }
        let found: IIODevice?
        do {
            found = try device.currentTrigger()
        } catch where error.errno == ENXIO {
            // A trigger made after the context: put its name back as text.
            try change("trigger/current_trigger", to: name)
            triggerName = name
            return
        }
        if found?.id != trigger.id {
            try device.setTrigger(trigger)
            let device = self.device
            undo.append { try? device.setTrigger(found) }
        }
        triggerName = name
    }

    /// Writes `value` to an attribute of `target` (the device itself unless
    /// given), remembering the old text once.
    private func change(_ attribute: String, to value: String, on target: IIODevice? = nil) throws(IIOError) {
        let target = target ?? device
        let original = trimmed(try target.readAttribute(attribute))
        if original != value {
            try target.writeAttribute(attribute, value)
            undo.append { try? target.writeAttribute(attribute, original) }
        }
    }

    /// Puts back every attribute changed, newest first, and removes a trigger we made.
    /// Best effort: a device that vanished cannot be restored, and that is not an error worth more noise.
    func restore() {
        for put in undo.reversed() { put() }
        undo.removeAll()
        try? createdTrigger?.remove()
        createdTrigger = nil
    }

    static func format(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    private func trimmed(_ text: String) -> String {
        String(text.trimmingCharacters(in: " \t\n"))
    }
}
