package import KeyringCrypto

/// What a sealed entry says: a record's identity and metadata, in the layout of
/// docs/FILE_FORMAT.md ("Records"), on the crypto layer's sealing.
extension RecordSealing {
    /// Seals `record` under `keys` for a store with this header, in a buffer of its own.
    package static func seal(_ record: StoredRecord, keys: SealingKeys, header: [UInt8]) throws -> SealedRecord {
        var entry = RecordEntry.encode(record.id, record.metadata)
        return try seal(entry: &entry, secret: record.secret, keys: keys, header: header)
    }

    /// Opens a sealed entry: the identity and metadata in it.
    /// - Parameters:
    ///   - cipher: keyed with `keys.entry`; one cipher serves every entry of a store.
    ///   - service: a service name already decoded, reused when this entry names the
    ///     same service, so the records of one service share one string.
    /// - Throws: ``CryptoError/damaged(reason:)`` when it does not authenticate or does not decode.
    package static func openEntry(
        _ sealedEntry: ArraySlice<UInt8>, cipher: borrowing AESGCM, header: [UInt8], service known: String? = nil
    ) throws -> (RecordID, RecordMetadata) {
        try openEntry(sealedEntry, cipher: cipher, header: header) { reader in
            try RecordEntry.decode(&reader, service: known)
        }
    }

    /// The metadata of a record, decrypted.
    /// - Throws: ``CryptoError/damaged(reason:)`` when its entry does not authenticate or does not decode.
    static func openMetadata(_ record: SealedRecord, cipher: borrowing AESGCM, header: [UInt8]) throws -> RecordMetadata {
        try openEntry(record.sealedEntry, cipher: cipher, header: header).1
    }

    /// The whole record under `id`: its metadata and its secret, decrypted.
    /// - Throws: ``CryptoError/damaged(reason:)`` when a part does not authenticate or does not decode.
    package static func open(_ record: SealedRecord, id: RecordID, keys: SealingKeys, header: [UInt8]) throws -> StoredRecord {
        let metadata = try openMetadata(record, cipher: try AESGCM(key: keys.entry), header: header)
        return StoredRecord(
            id: id, metadata: metadata, secret: try openSecret(record, keys: keys, header: header, what: "\(id)"))
    }
}
