// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import LibC
import SystemCalls

/// A temporary directory standing in for configfs, removed afterwards.
final class FakeConfigfs {
    let root: String

    /// `layout` says how much of configfs exists: nothing (not mounted),
    /// the root only, `iio/` without hrtimer, or the hrtimer directory.
    enum Layout { case notMounted, rootOnly, iioWithoutHrtimer, hrtimer }

    init(_ layout: Layout) {
        var template = Array("/tmp/tiltmaze-configfs-XXXXXX".utf8CString)
        let base = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        root = base + "/config"
        if layout != .notMounted { mkdir(root, 0o755) }
        if layout == .iioWithoutHrtimer || layout == .hrtimer {
            mkdir(root + "/iio", 0o755)
            mkdir(root + "/iio/triggers", 0o755)
        }
        if layout == .hrtimer { mkdir(root + "/iio/triggers/hrtimer", 0o755) }
    }

    deinit {
        for path in ["/iio/triggers/hrtimer/tiltmaze", "/iio/triggers/hrtimer", "/iio/triggers", "/iio", ""] {
            rmdir(root + path)
        }
        rmdir(String(root.dropLast("/config".count)))
    }
}

@Suite("hrtimer triggers through configfs")
struct HrtimerTriggerTests {
    @Test("create makes the trigger's directory, existing finds it, remove removes it")
    func createAndRemove() throws {
        let configfs = FakeConfigfs(.hrtimer)
        let trigger = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root)
        #expect(trigger.name == "tiltmaze")
        #expect(trigger.directory == configfs.root + "/iio/triggers/hrtimer/tiltmaze")
        #expect(HrtimerTrigger.existing(named: "tiltmaze", configfsRoot: configfs.root) == trigger)
        try trigger.remove()
        #expect(HrtimerTrigger.existing(named: "tiltmaze", configfsRoot: configfs.root) == nil)
    }

    @Test("configfs not mounted: the error says to mount it")
    func configfsMissing() {
        let configfs = FakeConfigfs(.notMounted)
        #expect { _ = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root) } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == ENOENT && e.description.contains("configfs is not mounted at \(configfs.root)")
        }
    }

    @Test("configfs without IIO: the error names the modules to load")
    func iioSoftwareTriggersMissing() {
        let configfs = FakeConfigfs(.rootOnly)
        #expect { _ = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root) } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == ENOENT && e.description.contains("industrialio-sw-trigger")
        }
    }

    @Test("no hrtimer trigger type: the error says to modprobe iio-trig-hrtimer")
    func hrtimerModuleMissing() {
        let configfs = FakeConfigfs(.iioWithoutHrtimer)
        #expect { _ = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root) } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == ENOENT && e.path.hasSuffix("/iio/triggers/hrtimer/tiltmaze")
                && e.description.contains("modprobe iio-trig-hrtimer")
        }
    }

    @Test("a trigger that exists already fails with EEXIST")
    func alreadyExists() throws {
        let configfs = FakeConfigfs(.hrtimer)
        let trigger = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root)
        #expect { _ = try HrtimerTrigger.create(named: "tiltmaze", configfsRoot: configfs.root) } throws: {
            ($0 as? IIOError)?.errno == EEXIST
        }
        try trigger.remove()
    }

    @Test("a name that is not one path component is refused", arguments: ["", "a/b", "..", "."])
    func badNames(_ name: String) {
        let configfs = FakeConfigfs(.hrtimer)
        #expect { _ = try HrtimerTrigger.create(named: name, configfsRoot: configfs.root) } throws: {
            ($0 as? IIOError)?.errno == EINVAL
        }
    }

    @Test("availability names the missing piece, or whether this user may make triggers")
    func availability() {
        let expected: [(FakeConfigfs.Layout, HrtimerTrigger.Availability)] = [
            (.notMounted, .configfsNotMounted), (.rootOnly, .noIIOInConfigfs),
            (.iioWithoutHrtimer, .moduleNotLoaded), (.hrtimer, .available(writable: true)),
        ]
        for (layout, availability) in expected {
            let configfs = FakeConfigfs(layout)
            withExtendedLifetime(configfs) {
                #expect(HrtimerTrigger.availability(configfsRoot: configfs.root) == availability, "\(layout)")
            }
        }
        #expect(HrtimerTrigger.Availability.moduleNotLoaded.description.contains("modprobe iio-trig-hrtimer"))
        #expect(HrtimerTrigger.Availability.configfsNotMounted.description.contains("mount -t configfs"))
    }
}
