/// An object a call goes to: the connection, the peer's unique name (or the bus's own name),
/// and the object's path. Each interface's typed functions (`PropertiesInterface`, the Secret
/// Service's in `SecretService/Interfaces/`) are built on `send`, one function per method.
struct BusObject: Sendable {
    let bus: BusConnection
    let destination: String
    let path: String

    /// Another object of the same peer, at `path`.
    func at(_ path: String) -> BusObject {
        BusObject(bus: bus, destination: destination, path: path)
    }

    /// Sends `interface.method` with `arguments` and returns at once; its reply, when it
    /// comes and is of type `reply`, is read by `decode` straight from the body. With `owner`,
    /// `destination` is the well-known name that question asked about (see `BusConnection.askOwner`).
    /// - Throws: as `BusConnection.send`.
    func send<Result: Sendable>(
        _ interface: String, _ method: String, signature: String = "", reply: String, autoStart: Bool = true,
        descriptors: [Int32] = [], owner: BusConnection.OwnerQuery? = nil, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result, arguments: (inout WireWriter) -> Void = { _ in }
    ) throws -> PendingReply<Result> {
        let serial = try bus.send(
            destination: destination, path: path, interface: interface, member: method, signature: signature,
            reply: reply, decode: { try decode(&$0) }, descriptors: descriptors, autoStart: autoStart, owner: owner,
            deadline: deadline, arguments: arguments)
        return PendingReply(bus: bus, serial: serial, interface: interface, method: method, expected: reply)
    }
}

/// A call sent and not yet answered, whose reply reads as `Result`.
struct PendingReply<Result: Sendable>: Sendable {
    let bus: BusConnection
    let serial: UInt32
    let interface: String
    let method: String
    /// The reply's signature the call was sent for.
    let expected: String

    /// Waits for the reply (a return or an error, as sent), naming `asked` when the wait times out.
    func reply(asked: String, deadline: Deadline) throws -> BusMessage {
        try bus.reply(to: serial, asked, deadline: deadline)
    }

    /// The typed result of `reply`, the reply to this call.
    /// - Throws: the peer's error (`BusFailure`), or `.backend` for a reply of another type.
    func value(of reply: BusMessage) throws -> Result {
        try BusConnection.decoded(Result.self, of: reply, interface: interface, method: method, expected: expected)!
    }

    /// As `value(of:)`, but `nil` when the peer says the object is gone (another process
    /// deleted it since it was found, which is no failure).
    func valueUnlessVanished(of reply: BusMessage) throws -> Result? {
        try BusConnection.decoded(
            Result.self, of: reply, interface: interface, method: method, expected: expected, vanishing: true)
    }

    /// Waits for the reply and returns its typed result.
    func value(asked: String, deadline: Deadline) throws -> Result {
        try value(of: reply(asked: asked, deadline: deadline))
    }

    /// Stops waiting: a reply that still comes is dropped.
    func forget() {
        bus.forget(serial)
    }
}
