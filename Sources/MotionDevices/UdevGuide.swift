// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Where advice about device permissions sends a player: the udev rules'
/// instructions and how to put the rules in. A program run from a source
/// tree points into that tree (`udev/README.md`, `sudo udev/install.sh`);
/// an installed one (the package, `make install`) has its rules installed
/// already and the instructions beside it, in `PREFIX/share/doc/tiltmaze`,
/// since a package user has no `udev/` folder to look in.
package struct UdevGuide: Sendable, Equatable {
    /// The instructions to read: a path.
    package var instructions: String
    /// How to put the rules (back) in.
    package var install: String
    /// Both, as the advice gives them: "sudo udev/install.sh; udev/README.md".
    package var steps: String { "\(install); \(instructions)" }

    /// For the running program.
    package static let current = UdevGuide(executable: runningExecutable(), fileExists: { access($0, F_OK) == 0 })

    /// For the program at `executable`: installed when its directory's
    /// `../share/doc/tiltmaze/udev.md` exists.
    package init(executable: String?, fileExists: (String) -> Bool) {
        if let executable, let slash = executable.lastIndex(of: "/"), executable[..<slash].hasSuffix("/bin") {
            let prefix = String(executable[..<slash].dropLast("/bin".count))
            let installed = prefix + "/share/doc/tiltmaze/udev.md"
            if fileExists(installed) {
                instructions = installed
                install = prefix == "/usr" ? "sudo apt install --reinstall tiltmaze" : "sudo make install, from the source tree"
                return
            }
        }
        instructions = "udev/README.md"
        install = "sudo udev/install.sh"
    }

    private static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
