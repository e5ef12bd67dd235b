#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGINT, SIGTERM and SIGHUP turned into a flag, for commands that must put
/// devices back the way they found them before exiting (`monitor`): the
/// default action would kill the process with a sensor's buffer still enabled.
enum StopSignals {
    private static let requested = Atomic<Bool>(false)

    static func install() {
        requested.store(false, ordering: .relaxed)   // initialise before any handler can run
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in StopSignals.requested.store(true, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            sigaddset(&set, signal)
        }
        // A parent may have left them blocked (see TerminalSystemCalls.unblock).
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
