/// Where each record of a two-store keyring lives, and how a call finds it.
///
/// A record with the sync flag lives in the shared store (`syncStore`) and nowhere
/// else; one without lives in the local store (`store`). Reads ask the local store
/// first, so a device-only record never costs a network round trip, then the shared
/// one. A write puts the record in its place first and then removes any copy in the
/// other, so a crash between the two steps leaves both; while both exist **the local
/// copy wins** (it is the one read and listed, and the one a read can find without the
/// network), and the next `set` or `remove` of the key removes the other copy. A move
/// to the shared store interrupted so is undone, a move to the local store is finished.
///
/// Which keys may have a shared copy is kept on this machine (``SharedCopyMarks``): marked,
/// durably, before a record is written to the shared store, and when a read finds one there,
/// and unmarked once the shared store says it holds none. So a device-only `set` or `remove`
/// asks the shared store only for a marked key, and a fresh process whose shared store opens
/// lazily (``LazyStore``) never reaches the fleet for a device-only record the local store holds.
/// A key another host made synced, never seen here, is not marked: setting it device-only here
/// leaves that host's copy in the shared store, shadowed here by the local one.
extension Keyring {
    /// Runs a call of the shared store, so that its errors name it, and a shared store that did
    /// not answer within the call's bound reads as unavailable (``KeyringError/Unavailability/Kind/noSharedStore``),
    /// naming the store, rather than as a timeout of some operation: for the caller, the fleet's store is down.
    func fromShared<T>(_ shared: any CredentialStore, _ body: () throws -> T) throws -> T {
        do {
            return try KeyringError.placing(in: KeyringError.Place(store: shared.identity.kind), body)
        } catch let error as KeyringError where error.code == .timedOut {
            throw KeyringError.serviceUnavailable(
                reason: .noSharedStore(detail: "\(shared.identity): \(error.operation ?? "the call") timed out")
            ).placed(in: KeyringError.Place(store: shared.identity.kind))
        }
    }

    /// Whether `error` says the shared store could not be reached (rather than the local store, or a
    /// record being bad): a call that can answer from this machine alone, as `list` can, then does.
    package func isSharedStoreDown(_ error: KeyringError) -> Bool {
        guard let syncStore else { return false }
        return error.code == .serviceUnavailable && error.place == KeyringError.Place(store: syncStore.identity.kind)
    }

    /// Where a record with this sync flag lives on this keyring.
    func place(sync: Bool) -> RecordPlace {
        sync && syncStore != nil ? .shared : .local
    }

    /// The record under `id`: the local store's, else the shared store's.
    func readRecord(_ id: RecordID, call: StoreCall) throws -> StoredRecord? {
        if let record = try fromStore({ try store.record(for: id, call: call) }) { return record }
        guard let syncStore else { return nil }
        let record = try fromShared(syncStore) { try syncStore.record(for: id, call: call) }
        if record != nil { noteSharedCopy(id) }
        return record
    }

    /// The secret under `id`: the local store's, else the shared store's.
    func readSecret(_ id: RecordID, call: StoreCall) throws -> [UInt8]? {
        if let secret = try fromStore({ try store.secret(for: id, call: call) }) { return secret }
        guard let syncStore else { return nil }
        let secret = try fromShared(syncStore) { try syncStore.secret(for: id, call: call) }
        if secret != nil { noteSharedCopy(id) }
        return secret
    }

    /// Marks `id` as having a shared copy, found by a read, so that setting it device-only here
    /// moves it; a mark that cannot be written costs that move, not the read.
    private func noteSharedCopy(_ id: RecordID) {
        guard !sharedCopies.mayHaveCopy(id) else { return }
        do {
            try sharedCopies.mark(id, durably: false)
        } catch {
            logger.debug("could not mark a key as having a shared copy", metadata: ["key": "\(id.key)", "error": "\(error)"])
        }
    }

    /// Stores `record` in the place its sync flag names, then removes a copy in the other place.
    ///
    /// A synced record that cannot reach the shared store is not written at all (a password
    /// kept only here would part ways with the fleet). A device-only record is written even
    /// when the shared store is down: the copy there, if any, is shadowed by the local one
    /// (the local copy wins) and removed by the key's next `set` or `remove`. The shared store is
    /// asked about a device-only record only when its key is marked (``SharedCopyMarks``).
    /// - Returns: where the record now lives.
    @discardableResult
    func write(_ record: StoredRecord, call: StoreCall) throws -> RecordPlace {
        guard let syncStore else {
            try fromStore { try store.save(record, call: call) }
            return .local
        }
        if record.metadata.syncEnabled {
            // Marked before the shared store holds it: a crash before the local copy goes leaves
            // both copies, and the key's next device-only `set` or `remove` must know to look there.
            try sharedCopies.mark(record.id, durably: true)
            try fromShared(syncStore) { try syncStore.save(record, call: call) }
            _ = try fromStore { try store.removeRecord(for: record.id, call: call) }
            return .shared
        }
        try fromStore { try store.save(record, call: call) }
        if sharedCopies.mayHaveCopy(record.id) { removeSharedCopy(of: record.id, call: call) }
        return .local
    }

    /// Removes the record under `id` from both stores.
    ///
    /// When the local store held it, it was a device-only record (or the winning copy of an
    /// interrupted move), and a shared store that cannot be reached does not fail the call.
    /// - Returns: whether a record was removed from either.
    func removeEverywhere(_ id: RecordID, call: StoreCall) throws -> Bool {
        let local = try fromStore { try store.removeRecord(for: id, call: call) }
        guard let syncStore else { return local }
        if local {
            if sharedCopies.mayHaveCopy(id) { removeSharedCopy(of: id, call: call) }
            return true
        }
        let removed = try fromShared(syncStore) { try syncStore.removeRecord(for: id, call: call) }
        sharedCopies.unmark(id)
        return removed
    }

    /// Removes a shared copy of a record that now lives locally, and then its mark, if the shared store
    /// answers; when it does not, the local copy wins meanwhile, the mark stays, and the key's next
    /// `set` or `remove` tries again.
    private func removeSharedCopy(of id: RecordID, call: StoreCall) {
        guard let syncStore else { return }
        do {
            if try fromShared(syncStore, { try syncStore.removeRecord(for: id, call: call) }) {
                logger.debug("removed the shared copy of a device-only record", metadata: ["key": "\(id.key)"])
            }
            sharedCopies.unmark(id)
        } catch {
            logger.warning(
                "the shared store kept a copy of a device-only record; this host reads the local one",
                metadata: ["key": "\(id.key)", "error": "\(error)"])
        }
    }

    /// The summaries of `kind` in both stores (or only in `place`), with the place each lives in;
    /// a key in both is shown once, from the local store, whose copy wins.
    func mergedSummaries(kind: RecordKind?, place: RecordPlace?, call: StoreCall) throws
        -> [(summary: RecordSummary, place: RecordPlace)]
    {
        // Keys are compared byte for byte, as the stores keep them: Swift's `==` on strings would
        // take a precomposed "é" and a decomposed one for the same key, and hide one of two records.
        func exact(_ id: RecordID) -> [UInt8] { Array("\(id.kind.rawValue)\u{0}".utf8) + Array(id.key.utf8) }
        var merged: [(summary: RecordSummary, place: RecordPlace)] = []
        var localIDs: Set<[UInt8]> = []
        if place != .shared {
            for summary in try fromStore({ try store.summaries(service: service, kind: kind, call: call) }) {
                merged.append((summary, .local))
                // Only a second store needs them: the set's first use costs a conformance lookup
                // over the whole binary (0.47M instructions), which a one-store `list` need not pay.
                if syncStore != nil { localIDs.insert(exact(summary.id)) }
            }
        }
        if let syncStore, place != .local {
            let shared = try fromShared(syncStore) { try syncStore.summaries(service: service, kind: kind, call: call) }
            for summary in shared where place == .shared || !localIDs.contains(exact(summary.id)) {
                merged.append((summary, .shared))
            }
        }
        return merged
    }
}
