/// A rectangle of canvas pixels: what a sprite covered, to put the static
/// picture back there on the next frame.
public struct PixelRect: BitwiseCopyable, Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// The pixels a circle can touch, with a one-pixel margin for rounding.
    /// Coordinates are clamped so a wild position cannot trap a conversion.
    static func around(centerX: Double, centerY: Double, radius: Double) -> PixelRect {
        @inline(__always) func pin(_ v: Double) -> Int { Int(min(max(v, -1e6), 1e6)) }
        let x0 = pin((centerX - radius).rounded(.down)) - 1
        let y0 = pin((centerY - radius).rounded(.down)) - 1
        let x1 = pin((centerX + radius).rounded(.up)) + 1
        let y1 = pin((centerY + radius).rounded(.up)) + 1
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
