// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import BenchmarkSupport
import Game
import MotionCore
import Render
import Displays
import Fbdev
#if canImport(Glibc)
import Glibc
#endif

// One terminal frame on an 80×24 screen: a ball crossing the screen wall to
// wall along the top corridor (0.1 cell a frame, ~6 cells/s at 60 fps) while
// four ghosts patrol and the clock on the status line runs. The first frame
// (a full redraw) is drawn before measuring; every measured frame is an
// incremental one, as in play.
//
// "bytes per frame" is the mean `cellGrid.lastEncoded.bytes` over the
// sample's frames; "first frame bytes" is the full redraw, for scale.

let framesPerSample = 1000

/// The snapshots of one back-and-forth crossing, taken from a real World
/// (ghosts, clock) with the ball placed on its path.
func crossingSnapshots(level: Level) -> [WorldSnapshot] {
    var world = Fixtures.endlessWorld(level)
    let stepsPerFrame = Int(Fixtures.physicsRate / 60)
    let left = 1.5, right = Double(level.width) - 2.5, step = 0.1
    let oneWay = Int(((right - left) / step).rounded())
    return (0 ..< 2 * oneWay).map { frame in
        for _ in 0 ..< stepsPerFrame { world.step(gravity: .zero) }
        var s = WorldSnapshot()
        world.snapshot(into: &s)
        let x = frame < oneWay ? left + Double(frame) * step : right - Double(frame - oneWay) * step
        s.ball = Point(x, 1.5)
        return s
    }
}

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    let level = Fixtures.screenLevel()
    let snapshots = crossingSnapshots(level: level)

    func frameBenchmark(_ mode: ColorMode, _ label: String) {
        let screen = TerminalGameView(level: level, sensorName: "benchmark", colorMode: mode, columns: 80, rows: 24)
        let first = screen.frame(for: snapshots[0])
        let firstBytes = first.count
        var next = 1
        let bytesPerFrame = BenchmarkMetric.custom("bytes per frame (mean)", polarity: .prefersSmaller, useScalingFactor: false)
        let fullRedrawBytes = BenchmarkMetric.custom("first frame bytes (full redraw)", polarity: .prefersSmaller, useScalingFactor: false)

        Benchmark("TerminalGameView.frame 80×24, \(label) (per frame)", configuration: .init(
            metrics: [.wallClock, bytesPerFrame, fullRedrawBytes],
            warmupIterations: 3,
            scalingFactor: .kilo,    // framesPerSample frames per sample
            maxDuration: .seconds(2)
        )) { benchmark in
            var bytes = 0
            var mismatches = 0
            for _ in benchmark.scaledIterations {
                let out = screen.frame(for: snapshots[next])
                let stats = screen.cellGrid.lastEncoded
                bytes &+= stats.bytes
                if stats.bytes != out.count { mismatches &+= 1 }
                next = next + 1 == snapshots.count ? 0 : next + 1
            }
            benchmark.measurement(bytesPerFrame, bytes / benchmark.scaledIterations.count)
            benchmark.measurement(fullRedrawBytes, firstBytes)
            if mismatches != 0 { benchmark.fail("lastEncoded.bytes differs from the frame's size \(mismatches) times") }
        }
    }
    frameBenchmark(.truecolor, "truecolor")
    frameBenchmark(.palette256, "256 colours")

    // Allocations: the same frames, counted unscaled so a single allocation in
    // 1000 frames shows. Target zero.
    do {
        let screen = TerminalGameView(level: level, sensorName: "benchmark", colorMode: .truecolor, columns: 80, rows: 24)
        _ = screen.frame(for: snapshots[0])
        var next = 1
        Benchmark("TerminalGameView.frame allocations ×1000 frames", configuration: .init(
            metrics: [.mallocCountTotal, .mallocBytesCount],
            warmupIterations: 3,
            maxDuration: .seconds(1),
            maxIterations: 50,
            // Not a timing threshold: any allocation more than the baseline fails a comparison.
            thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
        )) { benchmark in
            for _ in 0 ..< framesPerSample {
                blackHole(screen.frame(for: snapshots[next]).count)
                next = next + 1 == snapshots.count ? 0 : next + 1
            }
        }
    }

    // The framebuffer back end: compose the frame at the screen's resolution
    // and copy the changed rectangles into memory laid out as the device's
    // (what FramebufferDisplay.draw does, minus the vblank wait). Sizes: the
    // official 7" display (800×480 RGB565), a 1080p HDMI console in 32 bpp,
    // the Sense HAT's 8×8 matrix. "bytes per frame" is what the copy wrote,
    // beside the full frame a copy of everything would write.
    //
    // "tilt sweeping": the same frames with the board's tilt swinging so the
    // parallax stars shift by a pixel or more every frame, repainting every
    // margin each time (the worst case; a still tilt repaints nothing).
    func framebufferBenchmark(width: Int, height: Int, format: PixelFormat, sweepingTilt: Bool = false) {
        var snapshots = snapshots
        if sweepingTilt {
            for i in snapshots.indices {
                let phase = Double(i) * 0.15
                snapshots[i].gravity = Vector3(3 * sin(phase), 3 * cos(phase), -9)
            }
        }
        guard let screen = try? PixelGameView(level: level, sensorName: "benchmark", width: width, height: height) else {
            return
        }
        let surface = PixelSurface(width: width, height: height, format: format)
        for rect in screen.compose(snapshots[0]) { surface.copy(rect, from: screen.picture) }
        var next = 1
        let bytesPerFrame = BenchmarkMetric.custom("bytes per frame (mean)", polarity: .prefersSmaller, useScalingFactor: false)
        let fullFrameBytes = BenchmarkMetric.custom("full frame bytes", polarity: .prefersSmaller, useScalingFactor: false)
        Benchmark("PixelGameView frame + copy \(width)×\(height) \(format)\(sweepingTilt ? ", tilt sweeping" : "") (per frame)", configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, bytesPerFrame, fullFrameBytes],
            warmupIterations: 3,
            scalingFactor: .one,
            maxDuration: .seconds(2),
            thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
        )) { benchmark in
            var bytes = 0
            for _ in benchmark.scaledIterations {
                for rect in screen.compose(snapshots[next]) { bytes &+= surface.copy(rect, from: screen.picture) }
                next = next + 1 == snapshots.count ? 0 : next + 1
            }
            benchmark.measurement(bytesPerFrame, bytes / benchmark.scaledIterations.count)
            benchmark.measurement(fullFrameBytes, width * height * format.bytesPerPixel)
        }
    }
    framebufferBenchmark(width: 800, height: 480, format: .rgb565)
    framebufferBenchmark(width: 1920, height: 1080, format: .xrgb8888)
    framebufferBenchmark(width: 800, height: 480, format: .rgb565, sweepingTilt: true)
    framebufferBenchmark(width: 1920, height: 1080, format: .xrgb8888, sweepingTilt: true)

    // The KMS back end: the same frame composed, then BackBufferDamage copies
    // into the back one of two XRGB8888 buffers (plain memory here, dumb
    // buffers on a card) this frame's changed rectangles and the last
    // frame's, and the buffers swap as a page flip would swap them. What
    // KMSOutput.present does, minus the flip and its wait.
    func kmsBenchmark(width: Int, height: Int) {
        guard let screen = try? PixelGameView(level: level, sensorName: "benchmark", width: width, height: height) else {
            return
        }
        let buffers = [PixelSurface(width: width, height: height, format: .xrgb8888),
                       PixelSurface(width: width, height: height, format: .xrgb8888)]
        let damage = BackBufferDamage()
        var front = 0
        func present(_ snapshot: WorldSnapshot) -> Int {
            let back = 1 - front
            let bytes = damage.bringUpToDate(buffers[back], with: screen.picture, changed: screen.compose(snapshot))
            front = back
            return bytes
        }
        _ = present(snapshots[0])
        _ = present(snapshots[1])
        var next = 2
        let bytesPerFrame = BenchmarkMetric.custom("bytes per frame (mean)", polarity: .prefersSmaller, useScalingFactor: false)
        Benchmark("KMS frame + back-buffer copy \(width)×\(height) XRGB8888 (per frame)", configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, bytesPerFrame],
            warmupIterations: 3,
            scalingFactor: .one,
            maxDuration: .seconds(2),
            thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
        )) { benchmark in
            var bytes = 0
            for _ in benchmark.scaledIterations {
                bytes &+= present(snapshots[next])
                next = next + 1 == snapshots.count ? 0 : next + 1
            }
            benchmark.measurement(bytesPerFrame, bytes / benchmark.scaledIterations.count)
        }
    }
    kmsBenchmark(width: 1920, height: 1080)

    // The Sense HAT's 8×8 matrix: the view painted and copied whole (128 bytes).
    do {
        let canvas = Canvas(width: 8, height: 8)
        let surface = PixelSurface(width: 8, height: 8, format: .rgb565, lineLength: 16)
        var next = 0
        Benchmark("SenseHatView frame + copy 8×8 RGB565 (per frame)", configuration: .init(
            metrics: [.wallClock, .mallocCountTotal],
            warmupIterations: 3,
            maxDuration: .seconds(1),
            thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
        )) { benchmark in
            for _ in benchmark.scaledIterations {
                SenseHatView.paint(snapshots[next], level: level, into: canvas)
                blackHole(surface.copyAll(from: canvas))
                next = next + 1 == snapshots.count ? 0 : next + 1
            }
        }
    }
}
