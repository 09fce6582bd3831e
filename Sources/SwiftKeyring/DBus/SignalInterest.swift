/// The signals a handler on a `BusConnection` asks for: from whom, and, when it reads
/// their arguments, which member of which signature. A signal that matches no handler's
/// interest is skipped unread; one that matches only interests without a signature is
/// handed over with its body unread.
struct SignalInterest: Sendable {
    /// The unique name (or the bus's name) the signal must come from, as the bus writes it.
    let sender: String
    /// The member it must be; `nil` for any.
    var member: String?
    /// The body's signature the handler reads (with `decode`); `nil` when it reads only the header.
    var signature: String?
    /// Reads a body of that signature, where it lies, into the typed value the handler finds
    /// in `BusMessage.decoded`.
    var decode: (@Sendable (inout WireCursor) throws -> any Sendable)?

    /// The bus's `NameOwnerChanged` (`sss`): how a watch learns that a daemon or the portal left the bus.
    static let nameOwnerChanged = SignalInterest(
        sender: BusConnection.busName, member: "NameOwnerChanged", signature: "sss",
        decode: { try NameOwnerChange.read(&$0) })

    /// Whether `message` is such a signal; with a signature, only when its body was read (`bodyRead`).
    func matches(_ message: BusMessage, bodyRead: Bool) -> Bool {
        guard message.sender == sender, member == nil || message.member == member else { return false }
        guard let signature else { return true }
        return bodyRead && message.signature == signature
    }
}
