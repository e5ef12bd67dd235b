#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SystemCalls

/// SIGINT, SIGTERM and SIGHUP turned into a flag, for commands that must put
/// devices back the way they found them before exiting (`monitor`): the
/// default action would kill the process with a sensor's buffer still enabled.
enum StopSignals {
    private static let requested = Atomic<Bool>(false)

    static func install() {
        requested.store(false, ordering: .relaxed)   // initialise before any handler can run
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            SignalActions.install(signal, { _ in StopSignals.requested.store(true, ordering: .relaxed) })
        }
        // A parent may have left them blocked.
        SignalActions.unblock([SIGINT, SIGTERM, SIGHUP])
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
