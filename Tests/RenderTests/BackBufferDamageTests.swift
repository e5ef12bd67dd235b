// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Fbdev
@testable import Displays
@testable import Render

@Suite("Double-buffered damage: what a KMS back buffer needs before its flip")
struct BackBufferDamageTests {
    /// Two buffers flipped after every frame, as `KMSOutput` does on a card.
    final class FlippedPair {
        let buffers: [PixelSurface]
        var front = 0
        let damage = BackBufferDamage()

        init(width: Int, height: Int) {
            buffers = [PixelSurface(width: width, height: height, format: .xrgb8888, lineLength: width * 4 + 64),
                       PixelSurface(width: width, height: height, format: .xrgb8888, lineLength: width * 4 + 64)]
        }

        /// Brings the back buffer up to date and flips; the bytes copied.
        func present(_ picture: Canvas, changed: [PixelRect]) -> Int {
            let back = 1 - front
            let bytes = changed.withUnsafeBufferPointer { damage.bringUpToDate(buffers[back], with: picture, changed: $0) }
            front = back
            return bytes
        }

        /// The first pixel where the shown buffer differs from `picture`.
        func firstDifference(from picture: Canvas) -> (x: Int, y: Int)? {
            let shown = buffers[front]
            for y in 0 ..< shown.height { for x in 0 ..< shown.width where shown.pixel(x: x, y: y) != picture[x, y] { return (x, y) } }
            return nil
        }
    }

    @Test("a sprite moving every frame: each flipped frame shows the whole picture, copying only the damage")
    func movingSprite() {
        let (width, height) = (96, 64)
        let picture = Canvas(width: width, height: height)
        picture.fill(RGB(20, 30, 40))
        let pair = FlippedPair(width: width, height: height)
        #expect(pair.present(picture, changed: []) == width * height * 4, "the first frame is copied whole")
        #expect(pair.firstDifference(from: picture) == nil)

        var x = 0, maxBytes = 0, wrapped = 0
        var straight: Set<Int> = []
        for frame in 1 ... 40 {
            // The sprite leaves its old place (background again) and is drawn at the new one.
            let old = PixelRect(x: x, y: 20, width: 8, height: 8)
            picture.fillRect(x: old.x, y: old.y, width: 8, height: 8, color: RGB(20, 30, 40))
            x = (x + 3) % (width - 8)
            if x < 3 { wrapped = frame }
            let new = PixelRect(x: x, y: 20, width: 8, height: 8)
            picture.fillRect(x: new.x, y: new.y, width: 8, height: 8, color: RGB(255, 200, UInt8(frame)))
            let bytes = pair.present(picture, changed: [old, new])
            if frame > 1 { maxBytes = max(maxBytes, bytes) }
            if frame > 2 && frame > wrapped + 1 { straight.insert(bytes) }
            let wrong = pair.firstDifference(from: picture)
            #expect(wrong == nil, "frame \(frame) shows a stale pixel at \(String(describing: wrong))")
        }
        // Away from the wrap the four rectangles (its last three places)
        // overlap and are copied as one box: (8 + 2 × 3) × 8 pixels, about
        // what one buffer would take (the frame's own two, 11 × 8), not twice it.
        #expect(straight == [(8 + 2 * 3) * 8 * 4])
        // Never more than the four apart.
        #expect(maxBytes <= 4 * 8 * 8 * 4)
    }

    @Test("rectangles are merged only when their box costs no more than they do apart")
    func mergeRule() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(PixelRect.mergedBox(a, PixelRect(x: 5, y: 0, width: 10, height: 10)) == PixelRect(x: 0, y: 0, width: 15, height: 10))
        #expect(PixelRect.mergedBox(a, PixelRect(x: 2, y: 2, width: 3, height: 3)) == a, "one inside the other")
        #expect(PixelRect.mergedBox(a, PixelRect(x: 30, y: 0, width: 10, height: 10)) == nil, "apart")
        // Touching at a corner only: the box (20 × 20) is twice the pair.
        #expect(PixelRect.mergedBox(a, PixelRect(x: 10, y: 10, width: 10, height: 10)) == nil)
        let rects = UnsafeMutableBufferPointer<PixelRect>.allocate(capacity: 4)
        defer { rects.deallocate() }
        rects[0] = a
        rects[1] = PixelRect(x: 40, y: 0, width: 10, height: 10)
        rects[2] = PixelRect(x: 8, y: 0, width: 10, height: 10)
        rects[3] = PixelRect(x: 16, y: 0, width: 10, height: 10)
        let count = PixelRect.mergeOverlapping(rects, count: 4)
        let left = (0 ..< count).map { rects[$0] }.sorted { $0.x < $1.x }
        #expect(left == [PixelRect(x: 0, y: 0, width: 26, height: 10), PixelRect(x: 40, y: 0, width: 10, height: 10)])
    }

    @Test("a stale back buffer (a skipped frame, a return to the console) is copied whole, and then the other one too")
    func staleCopiesWhole() {
        let picture = Canvas(width: 32, height: 16)
        let pair = FlippedPair(width: 32, height: 16)
        _ = pair.present(picture, changed: [])
        _ = pair.present(picture, changed: [])
        #expect(pair.present(picture, changed: []) == 0, "nothing changed: nothing copied")
        pair.damage.markStale()
        picture.fill(RGB(1, 2, 3))
        #expect(pair.present(picture, changed: []) == 32 * 16 * 4)
        #expect(pair.present(picture, changed: []) == 32 * 16 * 4, "the other buffer lacked it as well")
        #expect(pair.firstDifference(from: picture) == nil)
        #expect(pair.present(picture, changed: []) == 0)
    }

    @Test("more rectangles than it keeps are copied as one whole frame")
    func manyRectangles() {
        let picture = Canvas(width: 200, height: 2)
        let pair = FlippedPair(width: 200, height: 2)
        _ = pair.present(picture, changed: [])
        _ = pair.present(picture, changed: [])
        picture.fill(RGB(9, 9, 9))
        let many = (0 ..< BackBufferDamage.capacity + 1).map { PixelRect(x: $0 * 3, y: 0, width: 1, height: 1) }
        #expect(pair.present(picture, changed: many) == 200 * 2 * 4)
        #expect(pair.present(picture, changed: []) == 200 * 2 * 4)
        #expect(pair.firstDifference(from: picture) == nil)
    }
}
