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
                let key = chosen.id.key
                return try Self.password(taking: consume chosen).map { (key, $0) }
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
            return try chosenLocalPassword(choosing: choose, call: startCall())
        }
        let keys = summaries.compactMap { CredentialsSummary($0.summary, place: $0.place)?.key }
        for key in choose(keys) {
            let id = try recordID(key, .credentials)
            if let password = try Self.password(taking: try readSecret(id, call: call), of: id) { return (key, password) }
        }
        return nil
    }

    /// `chosenPassword(choosing:)` among the local store's records alone.
    private func chosenLocalPassword(choosing choose: ([String]) -> [String], call: StoreCall) throws
        -> (key: String, password: String)?
    {
        let keys = try mergedSummaries(kind: .credentials, place: .local, call: call)
            .compactMap { CredentialsSummary($0.summary, place: $0.place)?.key }
        for key in choose(keys) {
            let id = try recordID(key, .credentials)
            if let password = try Self.password(taking: try fromStore({ try store.secret(for: id, call: call) }), of: id) {
                return (key, password)
            }
        }
        return nil
    }
}
