/// The attributes of a Secret Service item, as the calls send them (`a{ss}`).
///
/// Names and values follow the design: `tag` = `swift-keyring`, `service`,
/// `key`, `kind`, `username`, `url`, and the flags as exactly `true`/`false`.
struct SecretAttributes {
    static let tag = "swift-keyring"

    /// The names and values (as given, for a search of other programs' items).
    var values: [String: String] = [:]

    /// Whether an item holding `attributes` carries every one of these, exactly.
    ///
    /// A search alone does not prove it: KeePassXC's search skips its entries'
    /// protected attributes, so a foreign entry that protects `tag` matches a
    /// search for ours. What we overwrite or delete is checked with this first.
    func areAll(in attributes: [String: String]) -> Bool {
        values.allSatisfy { attributes[$0.key] == $0.value }
    }

    /// Every item of `service` the library wrote (of one `kind`, when given).
    static func scope(service: String, kind: RecordKind?) -> SecretAttributes {
        table(scopeValues(service: service, kind: kind))
    }

    /// The items that hold the record `id`: one, unless another program added more.
    static func identity(_ id: RecordID) -> SecretAttributes {
        table(identityValues(id))
    }

    /// All attributes of `record`, as stored.
    static func all(_ record: StoredRecord) -> SecretAttributes {
        table(allValues(record))
    }

    private static func table(_ pairs: [(String, String)]) -> SecretAttributes {
        var attributes = SecretAttributes()
        for (name, value) in pairs { attributes.values[name] = value }
        return attributes
    }

    // The names and values as pairs: what `scope`, `identity` and `all` hold, and what
    // stores that keep attributes themselves (libsecret's file) write.

    /// The attributes of `scope(service:kind:)`.
    static func scopeValues(service: String, kind: RecordKind?) -> [(String, String)] {
        [("tag", tag), ("service", service)] + (kind.map { [("kind", $0.rawValue)] } ?? [])
    }

    /// The attributes of `identity(_:)`.
    static func identityValues(_ id: RecordID) -> [(String, String)] {
        scopeValues(service: id.service, kind: id.kind) + [("key", id.key)]
    }

    /// The attributes of `all(_:)`.
    static func allValues(_ record: StoredRecord) -> [(String, String)] {
        identityValues(record.id) + [
            ("username", record.metadata.username),
            ("url", record.metadata.url),
            ("sync", record.metadata.syncEnabled ? "true" : "false"),
            ("background-access", record.metadata.backgroundAccess ? "true" : "false"),
        ]
    }

    /// The name of the schema of the library's items, as libsecret's file records it
    /// (`xdg:schema`) and libsecret's tools show it.
    static let schemaName = "org.swift-keyring.Record"

    /// Reads a record's identity and metadata back from an item's attributes;
    /// `nil` for an item that is not one of ours (no tag, or a kind we do not know).
    static func summary(from attributes: [String: String]) -> RecordSummary? {
        summary { attributes[$0] }
    }

    private static func summary(_ value: (String) -> String?) -> RecordSummary? {
        guard value("tag") == tag,
            let service = value("service"),
            let key = value("key"),
            let kind = value("kind").flatMap(RecordKind.init(rawValue:))
        else { return nil }
        return RecordSummary(
            id: RecordID(service: service, key: key, kind: kind),
            metadata: RecordMetadata(
                username: value("username") ?? "",
                url: value("url") ?? "",
                syncEnabled: value("sync") == "true",
                backgroundAccess: value("background-access") == "true"
            )
        )
    }
}
