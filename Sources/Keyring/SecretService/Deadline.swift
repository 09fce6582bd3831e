/// When one keyring operation must be done: every D-Bus call it makes gets
/// what is left, so an operation of several calls is bounded by one timeout.
struct Deadline: Sendable {
    /// The whole budget, as `KeyringError.timedOut` reports it.
    let timeout: Duration
    /// The instant the budget runs out.
    let end: ContinuousClock.Instant

    init(_ timeout: Duration) {
        self.timeout = timeout
        end = .now + timeout
    }

    /// The time left, never negative.
    var remaining: Duration {
        max(.zero, end - .now)
    }

    /// Whether no time is left.
    var hasPassed: Bool {
        remaining == .zero
    }

    /// What is left in whole milliseconds, at least 1, for GLib's own call timeouts.
    var remainingMilliseconds: Int32 {
        Int32(clamping: max(1, Int64(remaining.inSeconds * 1000)))
    }
}
