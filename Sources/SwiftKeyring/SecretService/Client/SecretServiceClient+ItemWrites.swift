/// The calls that change an existing item's secret in place, so the common
/// replace needs neither CreateItem's `replace` flag nor a second item.
extension SecretServiceClient {
    /// What an item holds besides its secret.
    struct ItemState {
        var label: String
        var attributes: [String: String]
    }

    /// The label and attributes of the item at `path`, in one call; `nil` when it vanished since the search.
    func state(at path: String, in operation: SecretOperation) throws -> ItemState? {
        guard let reply = try item(at: path).properties(in: operation) else { return nil }
        guard let attributes = reply.attributes else {
            // Missing, or of another type: not readable, which is no proof that the item is foreign.
            throw BusFailure.invalidReply("the Secret Service sent no attributes of type a{ss} for \(path)")
        }
        return ItemState(label: reply.label ?? "", attributes: attributes)
    }

    /// Sets the secret of the item at `path` to `record`'s (Item.SetSecret, through our session).
    /// - Returns: `false` when the item vanished since the search (another process deleted it).
    func setSecret(_ record: StoredRecord, at path: String, in operation: SecretOperation) throws -> Bool {
        var secret = try transfer(deadline: operation.deadline).encode(record.secret, contentType: Self.contentType(record))
        defer { secret.wipe() }
        return try item(at: path).setSecret(secret, in: operation)
    }

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
}
