/// Moving records that carry the sync flag but live on this machine (stored before a
/// shared store was configured) into the shared store: an explicit call, never a side
/// effect of a read.
extension Keyring {
    /// Moves every record of this service that has the sync flag and lives in the local
    /// store into the shared store (``syncStore``), credentials and secrets alike, each
    /// written there first and then removed here, as `set` moves a record.
    ///
    /// ```swift
    /// let keyring = try Keyring(service: "com.example.mail", store: local, syncStore: etcd)
    /// let moved = try keyring.pushSyncedRecords()   // `swift-keyring sync push`
    /// ```
    ///
    /// A record moves only when the shared store holds it; a failure part way leaves the
    /// records not yet moved where they were, and running the call again finishes the
    /// move. Like `migrate(from:removingFromSource:)` it may move many records, so each
    /// step has a deadline of its own.
    /// - Returns: how many records were moved.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `syncStore` when the keyring has
    ///   no shared store; ``KeyringError/Code/serviceUnavailable`` when it is down; another store error.
    @discardableResult
    public func pushSyncedRecords() throws -> Int {
        guard syncStore != nil else {
            throw KeyringError.invalidConfiguration(
                setting: "syncStore", reason: "this keyring has no shared store to push synced records to")
        }
        let waiting = try fromStore { try store.summaries(service: service, kind: nil, call: startCall()) }
            .filter(\.metadata.syncEnabled)
        var moved = 0
        for summary in waiting {
            let call = startCall()
            // A record removed or changed meanwhile moves as it is now, or not at all.
            guard var record = try fromStore({ try store.record(for: summary.id, call: call) }),
                record.metadata.syncEnabled
            else { continue }
            defer { record.secret.wipe() }
            try write(record, call: call)
            moved += 1
        }
        logger.debug("pushed synced records", metadata: ["service": "\(service)", "count": "\(moved)"])
        return moved
    }
}
