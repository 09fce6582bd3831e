internal import CLibSecretShims

/// The calls that change an existing item's secret in place, so the common
/// replace needs neither CreateItem's `replace` flag nor a second item.
extension SecretServiceClient {
    /// What an item holds besides its secret.
    struct ItemState {
        var label: String
        var attributes: [String: String]
    }

    /// The label and attributes of the item at `path`, in one call; `nil` when it vanished since the search.
    func state(at path: String, _ operation: String, deadline: Deadline) throws -> ItemState? {
        var label: UnsafeMutablePointer<gchar>?
        var table: OpaquePointer?
        let connection = bus.pointer
        _ = try GLibCall.run(operation, deadline: deadline) { cancellable, error in
            swift_keyring_read_label_and_attributes(
                connection, destination, path, deadline.remainingMilliseconds, cancellable, &label, &table, error
            )
        }
        defer {
            g_free(label)
            table.map { g_hash_table_unref($0) }
        }
        guard let label, let table else { return nil }
        return ItemState(label: String(cString: label), attributes: Self.dictionary(table))
    }

    /// Sets the secret of the item at `path` to `record`'s (Item.SetSecret, through our session).
    /// - Returns: `false` when the item vanished since the search (another process deleted it).
    func setSecret(_ record: StoredRecord, at path: String, _ operation: String, deadline: Deadline) throws -> Bool {
        let secret = try transfer(deadline: deadline).encode(record.secret, contentType: Self.contentType(record))
        guard
            let reply = try bus.callOnItem(
                operation, destination: destination, path: path, interface: "org.freedesktop.Secret.Item",
                method: "SetSecret",
                arguments: GVariantReading.tuple([secret]), reply: "()", deadline: deadline)
        else { return false }
        g_variant_unref(reply)
        return true
    }

    /// The attributes of the items at `paths`, keyed by path (reads in flight
    /// together); items that vanished meanwhile are left out.
    func attributes(at paths: [String], _ operation: String, deadline: Deadline) throws -> [String: [String: String]] {
        guard !paths.isEmpty else { return [:] }
        var result: [String: [String: String]] = [:]
        // At most a window of calls in flight at once: a long list waits about one round
        // trip per window rather than per item, and stays far below the bus's limit on pending replies.
        for start in stride(from: 0, to: paths.count, by: Self.attributesWindow) {
            let window = paths[start..<min(start + Self.attributesWindow, paths.count)]
            var calls: CallsInFlight?
            var indices: [Int] = []
            try GLibCall.run(operation, deadline: deadline) { cancellable, error in
                let inFlight = CallsInFlight(on: bus, cancellable: cancellable)
                indices = window.map { path in
                    inFlight.send(
                        destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                        method: "Get",
                        arguments: GVariantReading.propertyTuple("org.freedesktop.Secret.Item", "Attributes"),
                        reply: "(v)", deadline: deadline)
                }
                inFlight.waitForAll(cancellable: nil)
                inFlight.takeFailure(into: error)
                calls = inFlight
            }
            guard let calls else { continue }
            for (path, index) in zip(window, indices) {
                // An item that vanished meanwhile is left out; attributes of another type are an error.
                guard case .reply(let reply) = calls.take(index) else { continue }
                defer { g_variant_unref(reply) }
                let table = try Self.reading(operation, deadline) { swift_keyring_attributes_property_reply(reply, $0) }
                defer { table.map { g_hash_table_unref($0) } }
                if let table { result[path] = Self.dictionary(table) }
            }
        }
        return result
    }

    /// How many `Attributes` reads `attributes(at:)` keeps in flight at once.
    private static let attributesWindow = 32

    /// The content type `record`'s secret is sent with: `text/plain` for a password, unless
    /// a daemon could change it as text; `application/octet-stream` otherwise.
    ///
    /// KWallet 5.103 and KeePassXC 2.7.4 keep a `text/plain` secret as a Qt string, made
    /// with Qt 5's `QString::fromUtf8`, which drops a leading U+FEFF (both daemons) and
    /// stops at the first NUL (KWallet): "nul\0inside" came back as "nul". Such a password
    /// goes as bytes, which both keep byte for byte; every other password stays text, as
    /// a password manager shows it.
    static func contentType(_ record: StoredRecord) -> String {
        let survivesAsText = !record.secret.contains(0) && !record.secret.starts(with: [0xEF, 0xBB, 0xBF])
        return record.id.kind == .credentials && survivesAsText ? "text/plain" : "application/octet-stream"
    }

    /// A string-to-string `GHashTable` as a dictionary.
    static func dictionary(_ table: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        var iterator = GHashTableIter()
        g_hash_table_iter_init(&iterator, table)
        var name: gpointer?
        var value: gpointer?
        while g_hash_table_iter_next(&iterator, &name, &value) != 0 {
            if let name, let value {
                result[String(cString: name.assumingMemoryBound(to: CChar.self))] =
                    String(cString: value.assumingMemoryBound(to: CChar.self))
            }
        }
        return result
    }
}
