// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// A framebuffer as sysfs describes it (`/sys/class/graphics/fbN`): read
/// without opening the device, so any user can list them.
public struct FramebufferInfo: Equatable, Sendable {
    /// "fb0".
    public var id: String
    /// The driver's name for it: "vc4drmfb", "bochs-drmdrmfb", "RPi-Sense FB".
    public var name: String
    public var width: Int
    public var height: Int
    public var bitsPerPixel: Int
    /// Bytes from one row to the next.
    public var stride: Int

    public init(id: String, name: String, width: Int, height: Int, bitsPerPixel: Int, stride: Int) {
        self.id = id
        self.name = name
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.stride = stride
    }

    public var devicePath: String { "/dev/\(id)" }

    /// The Sense HAT's 8×8 LED matrix (rpisense-fb), not a screen.
    public var isSenseHatMatrix: Bool { name == "RPi-Sense FB" }

    /// Every `fbN` under `<sysfs>/class/graphics`, in number order; one
    /// whose size or depth cannot be read is left out.
    public static func all(sysfs: String = "/sys") -> [FramebufferInfo] {
        let base = sysfs + "/class/graphics"
        var found: [FramebufferInfo] = []
        for id in Sysfs.entries(of: base) {
            guard id.hasPrefix("fb"), Int(id.dropFirst(2)) != nil else { continue }
            let attribute = { (name: String) in Sysfs.firstLine(of: "\(base)/\(id)/\(name)") }
            // virtual_size is "width,height".
            let size = attribute("virtual_size")?.split(separator: ",").compactMap { Int($0) } ?? []
            guard size.count == 2, let bpp = attribute("bits_per_pixel").flatMap({ Int($0) }) else { continue }
            found.append(FramebufferInfo(id: id, name: attribute("name") ?? id, width: size[0], height: size[1],
                                         bitsPerPixel: bpp, stride: attribute("stride").flatMap { Int($0) } ?? 0))
        }
        return found.sorted { (Int($0.id.dropFirst(2)) ?? 0) < (Int($1.id.dropFirst(2)) ?? 0) }
    }
}
