import KeyringCrypto

extension EncryptedFileStore: ChosenRecordReads {
    /// The first record `choose` picks among `service`'s: the identities come from the
    /// file's index, so no record's metadata is decrypted to choose, and only the chosen
    /// record is opened, from the same version of the file. Takes no lock, as `record(for:)`.
    package func firstRecord(
        service: String, kind: RecordKind, choosing choose: ([RecordID]) -> [RecordID], call: StoreCall
    ) throws -> StoredRecord? {
        return try KeyringError.translatingCrypto {
            let found = try state.withLock { state -> (SealedRecord, RecordID, SealingKeys, [UInt8])? in
                try state.refresh(paths)
                var ids: [RecordID] = []
                for id in state.records.keys where id.service == service && id.kind == kind { ids.append(id) }
                // Every identity offered is in this version of the file: the first chosen is the one,
                // unless `choose` named one it was not offered.
                for id in choose(ids) {
                    if let sealed = state.records[id] { return (sealed, id, state.keys, state.headerBytes) }
                }
                return nil
            }
            guard let (sealed, id, keys, header) = found else { return nil }
            return try RecordSealing.open(sealed, id: id, keys: keys, header: header)
        }
    }
}
