/// The typed results of the Secret Service replies a lookup reads, each read by a
/// `WireCursor` straight from the reply's body where it lies in the receive buffer (given to
/// `BusConnection.send(…decode:)`): no value tree is made, the signature is checked once, by
/// the `reply:` the call was sent with, and the spec's rules as each value is read.
enum SecretReplies {
    /// `Service.SearchItems`' `aoao`: the matching items, unlocked and locked.
    struct Found: Sendable {
        var unlocked: [String]
        var locked: [String]
    }

    static func searchItems(_ cursor: inout WireCursor) throws -> Found {
        Found(unlocked: try paths(&cursor), locked: try paths(&cursor))
    }

    /// `Service.Unlock`'s `aoo`: the paths unlocked at once, and the prompt's path, `/` for none.
    struct Unlocked: Sendable {
        var unlocked: [String]
        var prompt: String
    }

    static func unlock(_ cursor: inout WireCursor) throws -> Unlocked {
        Unlocked(unlocked: try paths(&cursor), prompt: try cursor.objectPath())
    }

    /// `CreateItem`'s and `CreateCollection`'s `oo`: the new object's path (`/` when a prompt
    /// must create it), and the prompt's (`/` for none).
    struct Created: Sendable {
        var path: String
        var prompt: String
    }

    static func created(_ cursor: inout WireCursor) throws -> Created {
        Created(path: try cursor.objectPath(), prompt: try cursor.objectPath())
    }

    /// The error for a reply value of type `type` where the specification gives `expected`.
    static func wrongType(_ what: String, _ type: String, _ expected: String) -> KeyringError {
        BusFailure.invalidReply("the Secret Service sent \(what) of type \(type), not \(expected)")
    }

    /// `ao`.
    static func paths(_ cursor: inout WireCursor) throws -> [String] {
        try cursor.array(alignment: 4) { try $0.objectPath() }
    }

    /// One entry of `Service.GetSecrets`' `a{o(oayays)}`: an item and its secret, still encoded.
    struct Secret: Sendable {
        let item: String
        let encoded: SecretTransfer.Encoded
    }

    /// `a{o(oayays)}`. The value's bytes are copied once out of the receive buffer (which is
    /// wiped when consumed) into the array `SecretTransfer.decode` wipes.
    static func getSecrets(_ cursor: inout WireCursor) throws -> [Secret] {
        try cursor.array(alignment: 8) { entry in
            try entry.structure { fields in
                let item = try fields.objectPath()
                let encoded = try fields.structure { secret in
                    SecretTransfer.Encoded(
                        session: try secret.objectPath(), parameters: try secret.bytes(),
                        value: try secret.withBytes { Array($0) }, contentType: try secret.string())
                }
                return Secret(item: item, encoded: encoded)
            }
        }
    }

    /// `Properties.Get`'s `v` for an item's `Attributes`: the table when it is an `a{ss}`,
    /// else the type the daemon sent (read and checked, kept nowhere).
    enum Attributes: Sendable {
        case table([String: String])
        case otherType(String)
    }

    static func attributes(_ cursor: inout WireCursor) throws -> Attributes {
        try cursor.variant { value, type in
            guard type == "a{ss}" else {
                try value.skip(type)
                return .otherType(type)
            }
            return .table(try stringTable(&value))
        }
    }

    /// `a{ss}`.
    static func stringTable(_ cursor: inout WireCursor) throws -> [String: String] {
        var table: [String: String] = [:]
        try cursor.arrayElements(alignment: 8) { entry in
            try entry.structure { pair in
                let name = try pair.string()
                table[name] = try pair.string()
            }
        }
        return table
    }

    /// An item's `Properties.GetAll` (`a{sv}`): its `Label` when a string, its `Attributes`
    /// when an `a{ss}`; every other property read, checked and left.
    struct ItemProperties: Sendable {
        var label: String?
        var attributes: [String: String]?
    }

    static func itemProperties(_ cursor: inout WireCursor) throws -> ItemProperties {
        var properties = ItemProperties()
        try cursor.arrayElements(alignment: 8) { entry in
            try entry.structure { pair in
                let name = try pair.string()
                try pair.variant { value, type in
                    switch (name, type) {
                    case ("Label", "s"): properties.label = try value.string()
                    case ("Attributes", "a{ss}"): properties.attributes = try stringTable(&value)
                    default: try value.skip(type)
                    }
                }
            }
        }
        return properties
    }

    /// `Properties.Get`'s `v` when its value is only checked, never kept (the greeting).
    static func anyVariant(_ cursor: inout WireCursor) throws {
        try cursor.variant { value, type in try value.skip(type) }
    }

    /// `Service.OpenSession`'s `vo`: the daemon's output when it is an `ay` (its public
    /// value; `nil` for another type, such as a plain transfer's `s`), and the session's path.
    struct Opened: Sendable {
        let output: [UInt8]?
        let path: String
    }

    static func openSession(_ cursor: inout WireCursor) throws -> Opened {
        let output = try cursor.variant { value, type -> [UInt8]? in
            guard type == "ay" else {
                try value.skip(type)
                return nil
            }
            return try value.bytes()
        }
        return Opened(output: output, path: try cursor.objectPath())
    }
}
