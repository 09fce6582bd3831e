/// Moving an app's records between stores, for example from the encrypted file
/// a server used before a desktop session existed into the Secret Service.
extension Keyring {
    /// Copies every record of `source`'s service (credentials and secrets, the
    /// default record included) into this keyring's service, replacing records
    /// with the same key and kind.
    ///
    /// Nothing is removed from `source` unless every record was copied: a failure
    /// part way leaves the source whole, and running the call again finishes the copy.
    /// A migration may move many records, so each step (the listing, each record's
    /// read, write and removal) has a deadline of its own, of its store's `callTimeout`;
    /// a cancelled async migration stops at the next step.
    ///
    /// ```swift
    /// let file = try Keyring(service: "com.example.mail", configuration: KeyringConfiguration(store: .file))
    /// let desktop = try Keyring(service: "com.example.mail", configuration: KeyringConfiguration(store: .secretService))
    /// try desktop.migrate(from: file, removingFromSource: true)
    /// ```
    /// - Parameters:
    ///   - source: the keyring to copy from; it may use another store, or the same one with another service.
    ///   - removingFromSource: whether to remove the source's records once all are copied.
    /// - Returns: how many records were copied.
    /// - Throws: ``KeyringError`` from either store; records copied before the failure stay copied.
    @discardableResult
    public func migrate(from source: Keyring, removingFromSource: Bool = false) throws -> Int {
        let summaries = try source.fromStore {
            try source.store.summaries(service: source.service, kind: nil, call: source.startCall())
        }
        var copied = 0
        for summary in summaries {
            // A record removed from the source meanwhile is simply not copied.
            guard var record = try source.fromStore({ try source.store.record(for: summary.id, call: source.startCall()) }) else {
                continue
            }
            record.id.service = service
            // Into a two-store keyring, each record goes where its sync flag says.
            try write(record, call: startCall())
            copied += 1
        }
        if removingFromSource {
            for summary in summaries {
                _ = try source.fromStore { try source.store.removeRecord(for: summary.id, call: source.startCall()) }
            }
        }
        logger.debug(
            "migrated records",
            metadata: [
                "from": "\(source.store.identity.kind):\(source.service)", "to": "\(store.identity.kind):\(service)",
                "count": "\(copied)",
            ])
        return copied
    }
}
