internal import CLibSecretShims

/// Items other programs stored in the Secret Service under a schema of their own, read
/// for an import (`swift-keyring import git-libsecret`): never a record of ours.
///
/// A one-shot read through libsecret's own service proxy on the session bus: an import
/// runs once, so it needs none of the store's round-trip savings, only its bound on time.
package enum ForeignSecretServiceItems {
    /// One item: its attributes and its secret's bytes, `nil` while the item is locked.
    package struct Item: Sendable, CustomStringConvertible {
        package var attributes: [String: String]
        package var secret: [UInt8]?

        /// The attributes only: the secret is never shown.
        package var description: String { "Item(\(attributes), secret: <\(secret?.count ?? 0) bytes hidden>)" }
    }

    /// Every unlocked item, in any collection, whose attributes include all of `attributes`
    /// (`xdg:schema` among them for a schema's name), with its secret.
    /// - Throws: ``KeyringError/serviceUnavailable(reason:)`` without a Secret Service,
    ///   ``KeyringError/timedOut(operation:seconds:)`` past `timeout`, or another libsecret failure.
    package static func search(_ attributes: [String: String], timeout: Duration) throws -> [Item] {
        try LibSecretLoading.ensureLoaded()
        let deadline = Deadline(timeout)
        let operation = "search for other programs' items"
        let service = try GLibCall.run(operation, deadline: deadline, phase: .connect) { cancellable, error in
            secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, cancellable, error)
        }
        guard let service else {
            throw KeyringError.serviceUnavailable(
                reason: .noDaemon(detail: "libsecret found no Secret Service on the session bus"))
        }
        defer { g_object_unref(service) }
        let table = swift_keyring_attributes_new()!
        defer { g_hash_table_unref(table) }
        for (name, value) in attributes {
            swift_keyring_attributes_set(table, name, value)
        }
        let flags = SecretSearchFlags(SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_LOAD_SECRETS.rawValue)
        let found = try GLibCall.run(operation, deadline: deadline) { cancellable, error in
            // No schema: the attributes are matched as given, none added or checked.
            secret_service_search_sync(service, nil, table, flags, cancellable, error)
        }
        defer { g_list_free_full(found, g_object_unref) }
        var items: [Item] = []
        var node = found
        while let current = node {
            defer { node = current.pointee.next }
            let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
            // A locked item's secret is not loaded (no prompt is shown): the caller says it was not copied.
            var secret: [UInt8]?
            if let value = secret_item_get_secret(item) {
                var length = 0
                let bytes = secret_value_get(value, &length)
                secret = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
                secret_value_unref(UnsafeMutableRawPointer(value))
            }
            guard let itemAttributes = secret_item_get_attributes(item) else { continue }
            defer { g_hash_table_unref(itemAttributes) }
            items.append(Item(attributes: SecretServiceClient.dictionary(itemAttributes), secret: secret))
        }
        return items
    }
}
