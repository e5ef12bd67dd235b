import ArgumentParser
import MotionDevices
import SystemCalls

/// Makes the source `request` names and starts it, with Ctrl-C and SIGTERM
/// asking the caller's loop to stop; a failure is said in one line and ends
/// the program with status 1. The caller stops the source.
func startedSource(_ request: SensorRequest, rate: Double, iioURI: String?,
                   announce: (ChosenSource) -> Void = { _ in }) throws -> ChosenSource {
    do {
        let chosen = try request.makeSource(rate: rate, iioURI: iioURI)
        StopSignals.install()
        announce(chosen)
        try chosen.source.start()
        return chosen
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}
