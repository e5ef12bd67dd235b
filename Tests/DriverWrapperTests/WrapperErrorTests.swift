import Testing
import IIO
import Evdev
#if canImport(Glibc)
import Glibc
#endif

@Suite("Driver wrappers: errors name what failed")
struct WrapperErrorTests {
    @Test("opening a missing evdev node fails with ENOENT and names the node")
    func missingEvdevNode() {
        #expect {
            _ = try EvdevDevice(path: "/nonexistent/event42")
        } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.errno == ENOENT && e.description.hasPrefix("/nonexistent/event42: cannot open")
        }
    }

    @Test("a file that is not an input node is refused, and the message says what was expected")
    func notAnInputNode() {
        #expect {
            _ = try EvdevDevice(path: "/dev/null")
        } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.path == "/dev/null" && e.description.contains("not an evdev input node")
        }
    }

    @Test("permission errors point to the udev rules")
    func permissionHint() {
        let e = EvdevError(errno: EACCES, operation: "open", path: "/dev/input/event3")
        #expect(e.description.contains("udev/README.md"))
        let i = IIOError(errno: EACCES, operation: "open", subject: "/dev/iio:device0")
        #expect(i.description.contains("udev/README.md"))
    }

    @Test("an IIO context from an unknown URI scheme fails and names the URI")
    func badIIOURI() {
        #expect {
            _ = try IIOContext(uri: "nonsense:thing")
        } throws: { error in
            (error as? IIOError)?.subject == "nonsense:thing"
        }
    }

    @Test("the libiio version is reported")
    func libiioVersion() {
        #expect(IIOContext.libraryVersion.split(separator: ".").count == 2)
    }
}
