/// Replies checked for their type, and calls that wait for them (the bus's own methods are in
/// `BusInterface.swift`).
extension BusConnection {
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
}
