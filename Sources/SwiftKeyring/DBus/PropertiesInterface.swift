/// `org.freedesktop.DBus.Properties` of one object: the Secret Service's objects and the
/// Secret portal alike. `Set` is never called: see `ItemReplacement` for why no item is
/// changed that way.
struct PropertiesInterface {
    static let name = "org.freedesktop.DBus.Properties"

    let object: BusObject

    /// `Get(s interface, s property) → v`, its variant read by `decode`.
    func get<Result: Sendable>(
        _ interface: String, _ property: String, owner: BusConnection.OwnerQuery? = nil, deadline: Deadline,
        decode: @escaping (inout WireCursor) throws -> Result
    ) throws -> PendingReply<Result> {
        try object.send(
            Self.name, "Get", signature: "ss", reply: "v", owner: owner, deadline: deadline, decode: decode
        ) {
            $0.string(interface)
            $0.string(property)
        }
    }

    /// `GetAll(s interface) → a{sv}`, read by `decode`.
    func getAll<Result: Sendable>(
        _ interface: String, deadline: Deadline, decode: @escaping (inout WireCursor) throws -> Result
    ) throws -> PendingReply<Result> {
        try object.send(Self.name, "GetAll", signature: "s", reply: "a{sv}", deadline: deadline, decode: decode) {
            $0.string(interface)
        }
    }
}

extension BusObject {
    /// The object's properties.
    var properties: PropertiesInterface { PropertiesInterface(object: self) }
}
