/// One message read from the bus: a method's reply or error, a signal, or a call
/// (which this client never answers), with the header fields it carried and its
/// body read by its signature when anyone reads it (see `BusConnection`'s reader).
struct BusMessage: Sendable {
    /// The message types of the D-Bus specification.
    enum Kind: UInt8, Sendable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    let kind: Kind
    let serial: UInt32
    /// The serial of the call a reply or error answers.
    var replySerial: UInt32?
    /// The unique name of the connection that sent it, as the bus wrote it (nobody can
    /// forge this field on a bus: the bus replaces what the sender put there).
    var sender: String?
    var path: String?
    var interface: String?
    var member: String?
    /// The D-Bus error name of an error.
    var errorName: String?
    /// The body's signature, without the outer parentheses GDBus would add: `"oo"`, `""`.
    var signature = ""
    /// The reply's typed result, for a call sent with a decoder (`BusConnection.send(…decode:)`),
    /// or for a signal a handler reads, read from the body's bytes with no value tree.
    var decoded: (any Sendable)?
    /// Whether the whole body was read (into `decoded`).
    var bodyRead = false
    /// How many Unix file descriptors came with it (all closed on arrival: this client takes none).
    var descriptors = 0

    init(kind: Kind, serial: UInt32) {
        self.kind = kind
        self.serial = serial
    }

    /// An error's first argument, its message, when it is a string (read alone, the rest unread).
    var errorText: String?

    /// An error's message, or "no message".
    var errorMessage: String {
        errorText ?? "no message"
    }
}
