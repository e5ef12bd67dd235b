import CRealtime

/// The calling thread's timer slack: how late the kernel may wake it to batch wake-ups.
public enum TimerSlack {
    /// Sets the calling thread's timer slack. Linux defaults to 50 µs, which is
    /// most of a normal thread's wake-up latency at 1 kHz (about 90 µs p50 measured on
    /// the build machine, half that with less slack);
    /// a fixed-rate loop asks for less.
    /// The corresponding C call is `prctl(PR_SET_TIMERSLACK)`.
    @discardableResult
    public static func set(nanoseconds: Int) -> Bool {
        crt_set_timer_slack(UInt(max(1, nanoseconds))) == 0
    }
}
