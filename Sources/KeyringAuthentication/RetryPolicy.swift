public import HTTPTypes

/// How often and how soon a request that got no whole answer is sent again.
///
/// Retried, and nothing else: a connection refused or a server not found
/// (`.cannotConnect`), no whole answer within the transport's timeout (`.timedOut`),
/// a connection closed or broken before the whole answer, an empty reply included
/// (`.connectionLost`). Never retried: an answer of any status, an answer longer than
/// the transport's limit, a refused login, a request whose method is not idempotent
/// (``isIdempotent(_:)``) unless the caller says it is safe to repeat, and anything
/// once the request's deadline would pass before the retry. The waits grow:
/// `initialDelay`, then times `multiplier` each time, at most `maxDelay`.
public struct RetryPolicy: Sendable {
    /// How many times a request is sent again after the first attempt.
    public var maxRetries: Int
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// How much longer each further wait is.
    public var multiplier: Double
    /// The longest wait.
    public var maxDelay: Duration
    /// Which errors are worth a retry; `isTransient` unless changed.
    public var shouldRetry: @Sendable (any Error) -> Bool

    /// Makes a policy.
    /// - Parameters:
    ///   - maxRetries: retries after the first attempt; negative counts as none.
    ///   - initialDelay: the wait before the first retry.
    ///   - multiplier: the growth of each further wait; below 1 counts as 1.
    ///   - maxDelay: the longest wait.
    ///   - shouldRetry: which errors are worth a retry.
    public init(
        maxRetries: Int = 2,
        initialDelay: Duration = .milliseconds(250),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(5),
        shouldRetry: @escaping @Sendable (any Error) -> Bool = RetryPolicy.isTransient
    ) {
        self.maxRetries = max(0, maxRetries)
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maxDelay = maxDelay
        self.shouldRetry = shouldRetry
    }

    /// Two retries, after 250 ms and 500 ms.
    public static let `default` = RetryPolicy()

    /// No retries.
    public static let none = RetryPolicy(maxRetries: 0)

    /// The wait before retry number `retry` (1 for the first).
    public func delay(beforeRetry retry: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, retry) {
            delay = delay * multiplier
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// Whether a request of `method` may be sent again without the caller's word: the methods
    /// RFC 9110 calls idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE). A POST or a PATCH
    /// that got no answer may have been carried out, so it is sent once unless the caller
    /// passes `safeToRepeat: true`.
    public static func isIdempotent(_ method: HTTPRequest.Method) -> Bool {
        [.get, .head, .options, .trace, .put, .delete].contains(method)
    }

    /// `true` for a ``TransportError`` that may go away on its own (`TransportError.isTransient`).
    public static func isTransient(_ error: any Error) -> Bool {
        (error as? TransportError)?.isTransient ?? false
    }
}
