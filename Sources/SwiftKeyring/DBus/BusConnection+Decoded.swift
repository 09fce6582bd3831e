/// Replies checked for their type (the bus's own methods are in `BusInterface.swift`, calls
/// in `BusObject.swift`).
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
}
