// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Draws a `Panel` in pixels for a framebuffer: the whole panel is composed
/// into a canvas every frame (it is cheap next to copying), and only the
/// bands of rows that differ from the last frame go to the screen, each as
/// the narrowest rectangle that covers its changes. The rolling square
/// therefore costs a few kilobytes a frame, not the screen.
public final class PixelPanelPainter {
    public let picture: Canvas
    private let shown: Canvas
    private var shownValid = false
    private var damage: [PixelRect] = []
    let scale: Int
    static let band = 16

    public init(width: Int, height: Int) {
        picture = Canvas(width: width, height: height)
        shown = Canvas(width: width, height: height)
        scale = max(1, height / 360)
        damage.reserveCapacity(height / Self.band + 1)
    }

    /// Everything is sent on the next frame (after a console switch).
    public func forceFullRepaint() { shownValid = false }

    /// Composes `panel` and returns the rectangles that changed.
    public func paint(_ panel: Panel) -> [PixelRect] {
        compose(panel)
        damage.removeAll(keepingCapacity: true)
        let width = picture.width, height = picture.height
        guard shownValid else {
            shown.copy(from: picture)
            shownValid = true
            damage.append(PixelRect(x: 0, y: 0, width: width, height: height))
            return damage
        }
        var y0 = 0
        while y0 < height {
            let y1 = min(y0 + Self.band, height)
            var low = width, high = -1
            for y in y0 ..< y1 {
                var x = 0
                while x < width, picture[x, y] == shown[x, y] { x += 1 }
                guard x < width else { continue }
                var right = width - 1
                while right > x, picture[right, y] == shown[right, y] { right -= 1 }
                low = min(low, x)
                high = max(high, right)
            }
            if high >= low {
                let rect = PixelRect(x: low, y: y0, width: high - low + 1, height: y1 - y0)
                shown.copyRect(from: picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
                damage.append(rect)
            }
            y0 = y1
        }
        return damage
    }

    func compose(_ panel: Panel) {
        let width = picture.width, height = picture.height
        let s = scale
        let lineHeight = (BitmapFont.glyphHeight + 4) * s
        picture.fill(GamePalette.margin)
        picture.fillRect(x: 0, y: 0, width: width, height: lineHeight, color: GamePalette.statusBackground)
        text(panel.title, x: 2 * s, y: 2 * s, color: GamePalette.statusText)

        // The arena on the left (or on top when the screen is tall), framed.
        let wide = width >= height
        let room = wide ? min(height - 3 * lineHeight, width / 2) : min(width - 4 * s, height / 2)
        let side = max(8, room)
        let arenaX = wide ? 4 * s + 2 * s : (width - side) / 2
        let arenaY = lineHeight + 4 * s
        picture.fillRect(x: arenaX - 2 * s, y: arenaY - 2 * s, width: side + 4 * s, height: side + 4 * s, color: Panel.arenaFrame)
        picture.fillRect(x: arenaX, y: arenaY, width: side, height: side, color: panel.arena)
        if let square = panel.square {
            let size = max(2, Int((square.size * Double(side)).rounded()))
            picture.fillRect(x: arenaX + Int((square.x * Double(side)).rounded()) - size / 2,
                             y: arenaY + Int((square.y * Double(side)).rounded()) - size / 2,
                             width: size, height: size, color: square.color)
        }

        let textX = wide ? arenaX + side + 8 * s : 4 * s
        var y = wide ? arenaY : arenaY + side + 6 * s
        let columns = (width - textX - 2 * s) / BitmapFont.width(of: 1, scale: s)
        for line in panel.lines.flatMap({ Panel.wrapped($0, width: columns) }) {
            text(line, x: textX, y: y, color: GamePalette.statusText)
            y += lineHeight
        }
        if !panel.items.isEmpty { y += lineHeight / 2 }
        for (i, item) in panel.items.enumerated() {
            let chosen = i == panel.selected
            let boxWidth = BitmapFont.width(of: 20, scale: s) + 4 * s
            picture.fillRect(x: textX, y: y, width: boxWidth, height: lineHeight,
                             color: chosen ? GamePalette.messageText : GamePalette.messageBackground)
            text((chosen ? "> " : "  ") + item, x: textX + 2 * s, y: y + 2 * s,
                 color: chosen ? GamePalette.messageBackground : GamePalette.messageText)
            y += lineHeight
        }
        if let notice = panel.notice {
            y += lineHeight / 2
            text(notice, x: textX, y: y, color: GamePalette.statusWarning)
        }
        picture.fillRect(x: 0, y: height - lineHeight, width: width, height: lineHeight, color: GamePalette.footerBackground)
        text(panel.hints, x: 2 * s, y: height - lineHeight + 2 * s, color: GamePalette.footerText)
    }

    /// The font is ASCII: degrees, micro, squares and the menu mark are spelt out.
    private func text(_ s: String, x: Int, y: Int, color: RGB) {
        var ascii = ""
        for c in s {
            switch c {
            case "°": ascii += " deg"
            case "µ": ascii += "u"
            case "²": ascii += "^2"
            case "\u{25B6}": ascii += ">"
            case "·": ascii += "-"
            default: ascii.append(c)
            }
        }
        BitmapFont.bytes(ascii).withUnsafeBufferPointer {
            _ = BitmapFont.draw($0, x: x, y: y, scale: scale, color: color, into: picture)
        }
    }
}

