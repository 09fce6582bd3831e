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
        let attributes = SecretAttributes()
        attributes.set("tag", tag)
        attributes.set("service", service)
        if let kind { attributes.set("kind", kind.rawValue) }
        return attributes
    }

    /// The items that hold the record `id`: one, unless another program added more.
    static func identity(_ id: RecordID) -> SecretAttributes {
        let attributes = scope(service: id.service, kind: id.kind)
        attributes.set("key", id.key)
        return attributes
    }

    /// All attributes of `record`, as stored.
    static func all(_ record: StoredRecord) -> SecretAttributes {
        let attributes = identity(record.id)
        attributes.set("username", record.metadata.username)
        attributes.set("url", record.metadata.url)
        attributes.set("sync", record.metadata.syncEnabled ? "true" : "false")
        attributes.set("background-access", record.metadata.backgroundAccess ? "true" : "false")
        return attributes
    }

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
