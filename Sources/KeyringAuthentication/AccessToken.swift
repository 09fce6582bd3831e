/// The token a login returns, which the client attaches to every request.
///
/// Its `description` hides the value, so a token that ends up in a log line or
/// an interpolated string does not leak.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// 8 KiB: the longest token ``AuthenticatedClient`` accepts from a login. Servers commonly
    /// refuse request headers much longer than that (nginx's default buffer is 8 KiB for a
    /// whole header line), so a longer token would make every request fail.
    public static let maxLength = 8192

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

    /// Why the token cannot be sent as a request header's value, in words that never quote it; `nil` when it can.
    ///
    /// Only visible ASCII is accepted (RFC 6750's token characters and the rest of it, no space):
    /// HTTPTypes turns a CR or LF into a space, so such a token would be sent mangled and refused
    /// ever after, and every request would log in again.
    var headerProblem: String? {
        let bytes = value.utf8
        if bytes.isEmpty { return "an empty token" }
        if bytes.count > Self.maxLength {
            return "a token of \(bytes.count) bytes, longer than the \(Self.maxLength) a request header may carry"
        }
        if let bad = bytes.firstIndex(where: { !(0x21...0x7E).contains($0) }) {
            let offset = bytes.distance(from: bytes.startIndex, to: bad)
            return
                "a token with a byte at offset \(offset) that a request header cannot carry (a control character, a space or non-ASCII)"
        }
        return nil
    }
}
