#if canImport(Glibc)
import Glibc
#endif

/// Which shared library file this process actually loaded, from
/// `/proc/self/maps`: the file name carries the version a library has no
/// call for (libevdev), and the path shows which copy was picked up.
enum LoadedLibrary {
    /// The resolved path of the first mapped file whose name starts with
    /// `prefix` ("libevdev.so"), or nil when none is mapped.
    static func path(startingWith prefix: String) -> String? {
        guard let maps = fopen("/proc/self/maps", "re") else { return nil }
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // The path is the sixth field and may contain spaces: take from the first '/'.
            guard let slash = text.firstIndex(of: "/") else { continue }
            let path = String(text[slash...])
            guard path.split(separator: "/").last?.hasPrefix(prefix) == true else { continue }
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return nil
    }
}
