/// The token a login returns, which the client attaches to every request.
///
/// Its `description` hides the value, so a token that ends up in a log line or
/// an interpolated string does not leak.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token as the server gave it.
    public let value: String

    /// Wraps the token a server returned.
    public init(_ value: String) {
        self.value = value
    }

    /// The length only; never the value.
    public var description: String { "AccessToken(<\(value.utf8.count) bytes hidden>)" }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// The length only, so `dump` and the debugger, which read the mirror and not `description`, hide the value too.
    public var customMirror: Mirror {
        Mirror(self, children: ["value": "<\(value.utf8.count) bytes hidden>"], displayStyle: .struct)
    }
}
