/// The bus's `NameOwnerChanged` signal (`sss`), read straight from its body: the name, its
/// old owner and its new one (empty when the name is left without one). The one matcher of
/// it: how a watch learns that a daemon or the portal left the bus.
struct NameOwnerChange: Sendable {
    let name: String
    let oldOwner: String
    let newOwner: String

    static func read(_ cursor: inout WireCursor) throws -> NameOwnerChange {
        NameOwnerChange(name: try cursor.string(), oldOwner: try cursor.string(), newOwner: try cursor.string())
    }

    /// The change `message` announces, when it is the bus's `NameOwnerChanged` about `name`.
    static func about(_ name: String, in message: BusMessage) -> NameOwnerChange? {
        guard message.sender == BusConnection.busName, message.member == "NameOwnerChanged",
            let change = message.decoded as? NameOwnerChange, change.name == name
        else { return nil }
        return change
    }

    /// Whether `message` says `name` was left without an owner.
    static func isDeparture(of name: String, in message: BusMessage) -> Bool {
        about(name, in: message)?.newOwner.isEmpty == true
    }
}
