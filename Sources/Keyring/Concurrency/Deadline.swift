/// When one keyring operation must be done: every call it makes to a daemon or a
/// cluster gets what is left, so an operation of several calls (retries, another
/// member, a token renewal) is bounded by one timeout.
///
/// Made once where a public call starts and handed down; no inner step starts a
/// bound of its own.
package struct Deadline: Sendable {
    /// The whole budget, as `KeyringError.timedOut` reports it.
    package let timeout: Duration
    /// The instant the budget runs out.
    package private(set) var end: ContinuousClock.Instant

    package init(_ timeout: Duration) {
        self.timeout = timeout
        end = .now + timeout
    }

    /// The time left, never negative.
    package var remaining: Duration {
        max(.zero, end - .now)
    }

    /// Whether no time is left.
    package var hasPassed: Bool {
        remaining == .zero
    }

    /// What is left in whole milliseconds, at least 1, for GLib's and libcurl's own call timeouts.
    package var remainingMilliseconds: Int32 {
        Int32(clamping: max(1, Int64(remaining.inSeconds * 1000)))
    }

    /// This deadline, or `limit` from now when that comes sooner: a part of the call (one
    /// etcd member's turn) may get less than what is left, never more.
    package func capped(at limit: Duration) -> Deadline {
        var part = self
        part.end = min(end, .now + limit)
        return part
    }

    /// Runs `work` without counting its time against the bound: for local work whose cost has
    /// bounds of its own (Argon2id), which a slow peer does not cause and a bound on waiting
    /// for the peer should not cut short.
    package mutating func notCounting<Result>(_ work: () throws -> Result) rethrows -> Result {
        let start = ContinuousClock.now
        defer { end += .now - start }
        return try work()
    }

    /// The error for `operation` when the time ran out: it reports the whole bound, not what was left.
    package func timedOut(_ operation: String) -> KeyringError {
        .timedOut(operation: operation, seconds: timeout.inSeconds)
    }
}
