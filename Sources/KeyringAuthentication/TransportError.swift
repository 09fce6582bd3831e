/// A request that got no whole answer: why, in words that are safe to log.
///
/// The reason never holds a URL's query, a header or a body, so it cannot leak a token.
///
/// What ``AuthenticatedClient`` retries, and nothing else (``isTransient``): `.cannotConnect`,
/// `.timedOut` and `.connectionLost`, for a request that may be repeated.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as far as retrying is concerned.
    public enum Kind: String, Sendable, Hashable {
        /// The server could not be reached: connection refused, unknown host, no network.
        case cannotConnect
        /// The whole answer did not come within the timeout: nothing came, or too little.
        case timedOut
        /// The connection closed or broke before the whole answer came, an empty reply included.
        case connectionLost
        /// The answer's body is longer than the transport's limit (`URLSessionTransport.answerLimit`);
        /// its reading was stopped there. Not retried: the server would answer the same.
        case answerTooLarge
        /// Anything else; not retried.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// A short explanation for logs and people.
    public var reason: String

    /// Makes a transport error; custom transports throw these so the retry policy recognises them.
    /// - Parameters:
    ///   - kind: what went wrong.
    ///   - reason: a short explanation, without URLs' queries, headers or bodies.
    public init(_ kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// `true` for the failures that may go away on their own: `.cannotConnect`, `.timedOut`, `.connectionLost`.
    public var isTransient: Bool {
        switch kind {
        case .cannotConnect, .timedOut, .connectionLost: true
        case .answerTooLarge, .other: false
        }
    }

    /// The kind and the reason.
    public var description: String { "Transport error (\(kind.rawValue)): \(reason)" }
}
