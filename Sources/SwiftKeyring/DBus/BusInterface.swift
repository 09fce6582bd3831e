/// `org.freedesktop.DBus`, the bus's own object, which the Secret Service client, the probe
/// and the portal share: who owns a name (`GetNameOwner`, sent on its own or in a first flight
/// with `askOwner`), which process a connection is, the signals a connection gets
/// (`AddMatch`, `RemoveMatch`), and starting a service (`ListActivatableNames`,
/// `StartServiceByName`). `Hello` goes out with the authentication (`BusConnection.init`).
/// Its replies come only from the bus: no other connection can use its name.
extension BusConnection {
    /// The bus's own object.
    private var busObject: BusObject { BusObject(bus: self, destination: Self.busName, path: Self.busPath) }

    /// Calls a method of the bus itself and waits for its typed reply.
    @discardableResult
    private func callBus<Result: Sendable>(
        _ method: String, signature: String = "", reply: String, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result, arguments: (inout WireWriter) -> Void = { _ in }
    ) throws -> Result {
        try busObject.send(
            Self.busName, method, signature: signature, reply: reply, deadline: deadline, decode: decode,
            arguments: arguments
        ).value(asked: "ask the session bus (\(method))", deadline: deadline)
    }

    /// The unique name of the connection that owns `name` now, such as `:1.4`; `nil` when none does.
    /// - Throws: `.serviceUnavailable(reason: .noSessionBus)` for an answer that is no unique
    ///   name (calls go to it), or the call's errors.
    func nameOwner(_ name: String, deadline: Deadline) throws -> String? {
        try owner(answering: askOwner(name, deadline: deadline), deadline: deadline)
    }

    /// The answer to `question` (`askOwner`): as `nameOwner`, once the bus's reply is in.
    func owner(answering question: OwnerQuery, deadline: Deadline) throws -> String? {
        let name = question.name
        do {
            let answer = try Self.decoded(
                String.self, of: reply(to: question.serial, "ask the session bus (GetNameOwner)", deadline: deadline),
                interface: Self.busName, method: "GetNameOwner", expected: "s")!
            // The bus owns its own name; any other name is owned by a connection, known by its unique name.
            if name == Self.busName && answer == Self.busName { return answer }
            return try BusNames.uniqueName(answer, "GetNameOwner(\(name))")
        } catch KeyringError.Unavailability.Kind.noDaemon {
            // The bus answers NameHasNoOwner.
            return nil
        }
    }

    /// The process id of the connection named `unique` (such as `:1.4`), as the bus reports it; `nil` when unknown.
    func processID(ofConnection unique: String, deadline: Deadline) throws -> Int32? {
        let reply = try callBus(
            "GetConnectionUnixProcessID", signature: "s", reply: "u", deadline: deadline, decode: BasicReplies.uint32
        ) { $0.string(unique) }
        let processID = Int32(truncatingIfNeeded: reply)
        return processID > 0 ? processID : nil
    }

    /// Asks the bus to deliver the signals matching `rule` to this connection; it has
    /// done so for every message sent after its reply.
    func addMatch(_ rule: String, deadline: Deadline) throws {
        try callBus("AddMatch", signature: "s", reply: "", deadline: deadline, decode: BasicReplies.none) {
            $0.string(rule)
        }
    }

    /// Sends `AddMatch` or `RemoveMatch` (`member`) for `rule` and drops the bus's reply
    /// unread: the bus handles one connection's messages in order, so a rule added so is in
    /// place before any call sent after it reaches its peer, at no round trip.
    func sendMatchRule(_ member: String, _ rule: String, deadline: Deadline) throws {
        try busObject.send(
            Self.busName, member, signature: "s", reply: "", deadline: deadline, decode: BasicReplies.none
        ) { $0.string(rule) }.forget()
    }

    /// The match rule of the bus's `NameOwnerChanged` signals about `name`: how a watch learns
    /// that a daemon or the portal left the bus.
    static func nameOwnerChangedRule(_ name: String) -> String {
        "type='signal',sender='\(busName)',interface='\(busName)',member='NameOwnerChanged',arg0='\(name)'"
    }

    /// Whether the bus can start a service for `name` (D-Bus activation).
    func isActivatable(_ name: String, deadline: Deadline) throws -> Bool {
        try callBus("ListActivatableNames", reply: "as", deadline: deadline, decode: BasicReplies.strings).contains(name)
    }

    /// The unique name of `name`'s owner, asking the bus to start one (D-Bus activation)
    /// when none runs.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noDaemon)` when none runs and none
    ///   can be started, or the calls' errors.
    func startedOwner(_ name: String, deadline: Deadline) throws -> String {
        if let owner = try nameOwner(name, deadline: deadline) { return owner }
        try callBus("StartServiceByName", signature: "su", reply: "u", deadline: deadline, decode: BasicReplies.uint32) {
            $0.string(name)
            $0.uint32(0)
        }
        guard let owner = try nameOwner(name, deadline: deadline) else {
            throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "\(name) was started and left the bus"))
        }
        return owner
    }
}
