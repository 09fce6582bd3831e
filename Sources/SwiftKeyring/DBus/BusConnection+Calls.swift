/// Calls that wait for their reply and check its type, and the bus's own methods.
extension BusConnection {
    /// As `call(…decode:)`, for a method on an item (or naming one); `nil` when the daemon says the
    /// object is gone: another process deleted the item since we found it, which is no failure.
    func callOnItem<Result: Sendable>(
        _ operation: String, destination: String, path: String, interface: String, method: String,
        signature: String = "", reply expected: String, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result, arguments: (inout WireWriter) -> Void = { _ in }
    ) throws -> Result? {
        let serial = try send(
            destination: destination, path: path, interface: interface, member: method, signature: signature,
            reply: expected, decode: { try decode(&$0) }, deadline: deadline, arguments: arguments)
        let reply = try reply(to: serial, operation, deadline: deadline)
        return try Self.decoded(
            Result.self, of: reply, interface: interface, method: method, expected: expected, vanishing: true)
    }

    /// The typed result a call's decoder read from its reply (`send(…decode:)`), when the reply
    /// is a method return of signature `expected`; `nil` for a vanished object when `vanishing`.
    /// - Throws: the error it is (`BusFailure`), or `BusFailure.invalidReply` naming the method for another type.
    static func decoded<Result>(
        _ type: Result.Type, of reply: BusMessage, interface: String, method: String, expected: String,
        vanishing: Bool = false
    ) throws -> Result? {
        guard try isReturn(reply, interface: interface, method: method, expected: expected, vanishing: vanishing) else {
            return nil
        }
        guard let result = reply.decoded as? Result else {
            throw BusFailure.invalidReply("\(interface).\(method) answered with a body that was not read")
        }
        return result
    }

    /// Whether `reply` is a method return of signature `expected` (`false`: a vanished object, when `vanishing`).
    private static func isReturn(
        _ reply: BusMessage, interface: String, method: String, expected: String, vanishing: Bool
    ) throws -> Bool {
        if reply.kind == .error {
            if vanishing && BusFailure.isVanished(reply) { return false }
            throw BusFailure.keyringError(reply)
        }
        guard reply.signature == expected else {
            throw BusFailure.invalidReply(
                "\(interface).\(method) answered with a value of type (\(reply.signature)), not (\(expected))")
        }
        return true
    }

    /// Calls a method and returns its reply read by `decode` straight from the body's bytes
    /// into its typed result, before `deadline`.
    ///
    /// `reply` is the reply's signature, such as `"o"` or `""`: a reply of another type is
    /// an error naming the method, never values read as if they fitted. `autoStart: false`
    /// keeps the bus from starting a service to answer.
    /// - Throws: the error the peer answered (`BusFailure`), or as `reply(to:_:deadline:)`.
    @discardableResult
    func call<Result: Sendable>(
        _ operation: String, destination: String, path: String, interface: String, method: String,
        signature: String = "", reply expected: String, autoStart: Bool = true, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result, arguments: (inout WireWriter) -> Void = { _ in }
    ) throws -> Result {
        let serial = try send(
            destination: destination, path: path, interface: interface, member: method, signature: signature,
            reply: expected, decode: { try decode(&$0) }, autoStart: autoStart, deadline: deadline, arguments: arguments)
        let reply = try reply(to: serial, operation, deadline: deadline)
        return try Self.decoded(Result.self, of: reply, interface: interface, method: method, expected: expected)!
    }

    /// Calls a method of the bus itself.
    @discardableResult
    private func callBus<Result: Sendable>(
        _ method: String, signature: String = "", reply: String, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result, arguments: (inout WireWriter) -> Void = { _ in }
    ) throws -> Result {
        try call(
            "ask the session bus (\(method))", destination: Self.busName, path: Self.busPath, interface: Self.busName,
            method: method, signature: signature, reply: reply, deadline: deadline, decode: decode, arguments: arguments)
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
        forget(
            try send(
                destination: Self.busName, path: Self.busPath, interface: Self.busName, member: member, signature: "s",
                reply: "", deadline: deadline
            ) { $0.string(rule) })
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
