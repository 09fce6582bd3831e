/// When one keyring call must be done: every wait it makes (a D-Bus call, an etcd
/// member, a file lock, a retry, a token renewal) gets what is left, so a call of
/// several steps is bounded by one timeout.
///
/// ``Keyring`` makes one at the start of each public call, from its store's
/// ``CredentialStore/callTimeout``, and hands it to the store in the ``StoreCall``;
/// no step beneath starts a bound of its own. A store of your own reads it there:
///
/// ```swift
/// func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
///     let answer = try server.get(id.key, timeout: call.deadline.remaining)
///     …
/// }
/// ```
public struct Deadline: Sendable, Hashable {
    /// The whole budget, as ``KeyringError/timedOut(operation:seconds:)`` reports it.
    public let timeout: Duration
    /// The instant the budget runs out.
    public private(set) var end: ContinuousClock.Instant

    /// A deadline `timeout` from now.
    public init(_ timeout: Duration) {
        self.timeout = timeout
        end = .now + timeout
    }

    /// The time left, never negative.
    public var remaining: Duration {
        max(.zero, end - .now)
    }

    /// Whether no time is left.
    public var hasPassed: Bool {
        remaining == .zero
    }

    /// What is left in whole milliseconds, at least 1, for `poll` and libcurl's own call timeouts.
    package var remainingMilliseconds: Int32 {
        Int32(clamping: max(1, Int64(remaining.inSeconds * 1000)))
    }

    /// This deadline, or `limit` from now when that comes sooner: a part of the call (one
    /// etcd member's turn) may get less than what is left, never more.
    public func capped(at limit: Duration) -> Deadline {
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
    /// - Parameter operation: what waited, such as `"reading a record"`.
    public func timedOut(_ operation: String) -> KeyringError {
        .timedOut(operation: operation, seconds: timeout.inSeconds)
    }
}
