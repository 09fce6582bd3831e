internal import CLibSecretShims

/// The attributes of a Secret Service item, as an owned `GHashTable` of strings.
///
/// Names and values follow the design: `tag` = `swift-keyring`, `service`,
/// `key`, `kind`, `username`, `url`, and the flags as exactly `true`/`false`.
final class SecretAttributes {
    static let tag = "swift-keyring"

    /// The `GHashTable *` the libsecret calls take.
    let table: OpaquePointer
    /// The same names and values, for comparing with what an item holds.
    private(set) var values: [String: String] = [:]

    private init() {
        table = swift_keyring_attributes_new()
    }

    deinit {
        g_hash_table_unref(table)
    }

    private func set(_ name: String, _ value: String) {
        swift_keyring_attributes_set(table, name, value)
        values[name] = value
    }

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
        let attributes = SecretAttributes()
        for (name, value) in pairs { attributes.set(name, value) }
        return attributes
    }

    // The names and values alone, with no GLib table: what `scope`, `identity` and `all`
    // put in theirs, and what stores that keep attributes themselves (libsecret's file) write.

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

    /// The name of the schema the library writes its items with (`swift_keyring_schema` in
    /// the C shim): libsecret adds it as `xdg:schema` to an item it sends the Secret Service.
    static let schemaName = "org.swift-keyring.Record"

    /// Reads a record's identity and metadata back from an item's attribute table;
    /// `nil` for an item that is not one of ours (no tag, or a kind we do not know).
    static func summary(from table: OpaquePointer) -> RecordSummary? {
        summary { name in swift_keyring_attributes_get(table, name).map { String(cString: $0) } }
    }

    /// As `summary(from:)`, for attributes already read into a dictionary.
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
