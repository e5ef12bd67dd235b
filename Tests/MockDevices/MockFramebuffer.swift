// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A fake framebuffer (`/sys/class/graphics/fbN`, `/dev/fbN`) with the
/// attributes the kernel's fbsysfs gives one (name, virtual_size,
/// bits_per_pixel, stride) and answers to the layout ioctls
/// (`MockFramebufferIoctls`). Nothing can be drawn on it: its memory cannot be mapped.
public struct MockFramebuffer: Sendable {
    public var number: Int
    public var name: String
    public var width: Int
    public var height: Int
    public var bitsPerPixel: Int
    public var parent: String

    public init(number: Int = 0, name: String, width: Int, height: Int, bitsPerPixel: Int,
                parent: String = "/devices/platform/gpu") {
        self.number = number
        self.name = name
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.parent = parent
    }

    /// Pi OS bookworm's fbdev emulation on vc4-kms-v3d: 16 bpp by default.
    public static func piHDMI(number: Int = 0) -> MockFramebuffer {
        MockFramebuffer(number: number, name: "vc4drmfb", width: 1920, height: 1080, bitsPerPixel: 16)
    }

    /// The Sense HAT's LED matrix (rpisense-fb): 8×8 RGB565.
    public static func senseHatMatrix(number: Int = 1) -> MockFramebuffer {
        MockFramebuffer(number: number, name: "RPi-Sense FB", width: 8, height: 8, bitsPerPixel: 16,
                        parent: "/devices/platform/soc/fe804000.i2c/i2c-1/1-0046/rpi-sense-fb")
    }

    public var devicePath: String { "/dev/fb\(number)" }

    public var umockdevDescription: String {
        let attributes = ["name": name, "virtual_size": "\(width),\(height)", "bits_per_pixel": "\(bitsPerPixel)",
                          "stride": "\(width * bitsPerPixel / 8)", "dev": "29:\(number)"]
        var lines = ["P: \(parent)/graphics/fb\(number)", "N: fb\(number)", "E: DEVNAME=\(devicePath)",
                     "E: SUBSYSTEM=graphics", "E: MAJOR=29", "E: MINOR=\(number)"]
        lines += attributes.sorted { $0.key < $1.key }.map { "A: \($0.key)=\(umockdevEscaped($0.value))\\n" }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

extension Testbed {
    public func add(_ framebuffer: MockFramebuffer) throws(TestbedError) {
        // The ioctl answers before the node appears: a program may open it at once.
        try MockFramebufferIoctls(framebuffer).attach(to: handle)
        try add(description: framebuffer.umockdevDescription)
    }
}
