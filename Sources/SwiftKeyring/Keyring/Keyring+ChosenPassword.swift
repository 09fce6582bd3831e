/// One credentials record chosen by its key among the service's, and its password.
extension Keyring {
    /// The key and password of the first credentials record, in the order `choose` gives
    /// this service's keys, that still has a password; `nil` when there is none.
    ///
    /// The answer `list()` and then `password(forKey:)` of each key chosen, in turn, would
    /// give (a record `list()` leaves out is never chosen), but with the work of one listing
    /// and one read where the store can (``ChosenRecordReads``): on the Secret Service, one
    /// search instead of two. On a two-store keyring it lists and reads as those calls do,
    /// except that when the shared store cannot be reached it chooses among this machine's
    /// records (a program such as git's helper then still finds a device-only credential).
    /// - Parameter choose: the keys to try, in order, among those it is shown (each credentials record's key).
    /// - Throws: as `password(forKey:)`, for the record being read.
    package func chosenPassword(choosing choose: ([String]) -> [String]) throws -> (key: String, password: String)? {
        guard var chosen = try chosenSecret(choosing: choose) else { return nil }
        defer { chosen.secret.wipe() }
        return (chosen.key, try Credentials.password(from: chosen.secret, of: chosen.id))
    }

    /// `chosenPassword(choosing:)` with the password as its UTF-8 bytes, for a caller that
    /// writes it out and wipes it (git's helper), as `passwordBytes(forKey:)` is for one key.
    /// - Throws: as `chosenPassword(choosing:)`; `.invalidRecord` naming `password` when the bytes are not UTF-8.
    package func chosenPasswordBytes(choosing choose: ([String]) -> [String]) throws -> (key: String, password: [UInt8])? {
        guard var chosen = try chosenSecret(choosing: choose) else { return nil }
        guard Self.isUTF8(chosen.secret) else {
            chosen.secret.wipe()
            throw KeyringError.invalidRecord(field: "password", reason: "the stored bytes of \(chosen.id) are not UTF-8 text")
        }
        return (chosen.key, chosen.secret)
    }

    /// The record both faces choose, with its secret bytes as the store returned them.
    private func chosenSecret(choosing choose: ([String]) -> [String]) throws -> (key: String, id: RecordID, secret: [UInt8])? {
        let call = startCall()
        if syncStore == nil, let reads = Self.chosenRecordReads(of: store) {
            let service = self.service
            let found = try fromStore {
                try reads.firstRecord(
                    service: service, kind: .credentials,
                    choosing: { ids in choose(ids.map(\.key)).map { RecordID(service: service, key: $0, kind: .credentials) } },
                    call: call)
            }
            guard var chosen = consume found else { return nil }
            // A record whose URL `list()` cannot parse is one it leaves out: then the long way, as it does.
            if CredentialsSummary(RecordSummary(id: chosen.id, metadata: chosen.metadata)) != nil {
                // The bytes themselves are handed on (no copy), and the record is left an empty secret.
                var secret: [UInt8] = []
                swap(&secret, &chosen.secret)
                return (chosen.id.key, chosen.id, secret)
            }
            chosen.secret.wipe()
        }
        let summaries: [(summary: RecordSummary, place: RecordPlace)]
        do {
            summaries = try mergedSummaries(kind: .credentials, place: nil, call: call)
        } catch let error as KeyringError where isSharedStoreDown(error) {
            logger.warning(
                "the shared store could not be reached; choosing among this machine's records",
                metadata: ["service": "\(service)", "error": "\(error)"])
            // A call of its own: the wait for the shared store may have spent this one's bound.
            return try chosenLocalSecret(choosing: choose, call: startCall())
        }
        let keys = summaries.compactMap { CredentialsSummary($0.summary, place: $0.place)?.key }
        for key in choose(keys) {
            let id = try recordID(key, .credentials)
            if let secret = try readSecret(id, call: call) { return (key, id, secret) }
        }
        return nil
    }

    /// `chosenSecret(choosing:)` among the local store's records alone.
    private func chosenLocalSecret(choosing choose: ([String]) -> [String], call: StoreCall) throws
        -> (key: String, id: RecordID, secret: [UInt8])?
    {
        let keys = try mergedSummaries(kind: .credentials, place: .local, call: call)
            .compactMap { CredentialsSummary($0.summary, place: $0.place)?.key }
        for key in choose(keys) {
            let id = try recordID(key, .credentials)
            if let secret = try fromStore({ try store.secret(for: id, call: call) }) { return (key, id, secret) }
        }
        return nil
    }
}
