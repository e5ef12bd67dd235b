import Glibc

/// Standard output and error written directly, whole.
///
/// The command line speaks through these rather than Foundation's `FileHandle`
/// so that the program needs only FoundationEssentials: a static build then
/// carries no ICU tables (about 40 MB), which keeps the Debian package small.
enum StandardStream {
    case output, error

    var isTerminal: Bool { isatty(descriptor) == 1 }

    private var descriptor: Int32 { self == .output ? 1 : 2 }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe or a full disk: nothing more can be said on this stream
                }
            }
        }
    }
}

/// `text` padded on the left to `width` characters, as printf's `%7s` would.
func rightAligned(_ text: String, width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
