/// A request that got no answer: why, in words that are safe to log.
///
/// The reason never holds a URL's query, a header or a body, so it cannot leak a token.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as far as retrying is concerned.
    public enum Kind: String, Sendable, Hashable {
        /// The server could not be reached: connection refused, unknown host, no network.
        case cannotConnect
        /// The server did not answer within the timeout.
        case timedOut
        /// The connection broke before the answer was complete.
        case connectionLost
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

    /// `true` for the failures that may go away on their own: everything but `.other`.
    public var isTransient: Bool { kind != .other }

    /// The kind and the reason.
    public var description: String { "Transport error (\(kind.rawValue)): \(reason)" }
}
