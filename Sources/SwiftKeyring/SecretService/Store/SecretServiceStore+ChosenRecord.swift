extension SecretServiceStore: ChosenRecordReads {
    /// The first record `choose` picks among `service`'s, read with one search.
    ///
    /// One search of the service's items, with the session opening meanwhile, and their
    /// attributes (as `summaries` reads them); then the chosen record's newest unlocked item is
    /// read as `record(for:)` reads one (attributes and secret together, the identity
    /// checked). Only when that gives nothing (its items are locked, or changed or deleted
    /// since the search) is the record looked up the usual way, which unlocks or searches
    /// again, and then the next one chosen: the answer is the one a listing followed by
    /// `record(for:)` of each chosen identity in turn would give.
    package func firstRecord(
        service: String, kind: RecordKind, choosing choose: ([RecordID]) -> [RecordID], call: StoreCall
    ) throws -> StoredRecord? {
        try call.bind {
            let operation = self.operation("read a chosen record of \(service)", call.deadline)
            let (found, unread) = try client.run(operation) { client in
                try firstRecord(service: service, kind: kind, choose, client, in: operation)
            }
            if let found { return found }
            for id in unread {
                if let record = try record(for: id, deadline: call.deadline) { return record }
            }
            return nil
        }
    }

    /// The chosen record, when one of the items the search found gives it; else the
    /// identities chosen that are still to be looked up, in order.
    private func firstRecord(
        service: String, kind: RecordKind, _ choose: ([RecordID]) -> [RecordID], _ client: SecretServiceClient,
        in operation: SecretOperation
    ) throws -> (StoredRecord?, ArraySlice<RecordID>) {
        // The session opens with the search, in one write.
        let paths = try client.searchPaths(.scope(service: service, kind: kind), in: operation, openingSession: true)
        // As `summaries`: a search may return items of another service or kind, which are not offered.
        let items = try client.items(at: paths.unlocked + paths.locked, in: operation).filter { item in
            item.summary.id.service.utf8.elementsEqual(service.utf8) && item.summary.id.kind == kind
        }
        let chosen = choose(items.map(\.summary.id))[...]
        guard let id = chosen.first else { return (nil, []) }
        let readable = items.filter { $0.summary.id == id && paths.unlocked.contains($0.path) }.map(\.path)
        // Newest first, as `lookUp` reads duplicates: the item writes keep.
        for path in readable.sorted(by: ItemReplacement.precedes).reversed() {
            guard let record = try client.record(at: path, in: operation), record.id == id else { continue }
            _ = try Self.checked(record.secret, of: id)
            return (record, [])
        }
        return (nil, chosen)
    }
}
