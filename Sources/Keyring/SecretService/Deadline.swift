/// When one keyring operation must be done: every D-Bus call it makes gets
/// what is left, so an operation of several calls is bounded by one timeout.
struct Deadline: Sendable {
    /// The whole budget, as `KeyringError.timedOut` reports it.
    let timeout: Duration
    private let end: ContinuousClock.Instant

    init(_ timeout: Duration) {
        self.timeout = timeout
        end = .now + timeout
    }

    /// The time left, never negative.
    var remaining: Duration {
        max(.zero, end - .now)
    }
}
