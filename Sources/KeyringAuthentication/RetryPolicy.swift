/// How often and how soon a request that got no answer is sent again.
///
/// Only transport failures are retried (connection refused, timeout, broken
/// connection), never an answer, never a refused login, and never a request
/// marked not safe to repeat. The waits grow: `initialDelay`, then times
/// `multiplier` each time, at most `maxDelay`.
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

    /// `true` for a ``TransportError`` that may go away on its own (`TransportError.isTransient`).
    public static func isTransient(_ error: any Error) -> Bool {
        (error as? TransportError)?.isTransient ?? false
    }
}
