package import KeyringCrypto

/// What a sealed entry says: a record's identity and metadata, in the layout of
/// docs/FILE_FORMAT.md ("Records"), on the crypto layer's sealing.
extension RecordSealing {
    /// Seals `record` under `keys` for a store with this header, in a buffer of its own.
    package static func seal(_ record: StoredRecord, keys: SealingKeys, header: [UInt8]) throws -> SealedRecord {
        var entry = encodeEntry(record.id, record.metadata)
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
            let kindByte = try reader.uint8()
            let flags = try reader.uint8()
            guard let kind = kind(of: kindByte), flags & ~0b11 == 0 else {
                throw CryptoError.damaged(reason: "a record has an unknown kind or flags")
            }
            let serviceBytes = try reader.lengthPrefixed()
            let service: String
            if let known, known.utf8.elementsEqual(serviceBytes) {
                service = known
            } else {
                service = try text(serviceBytes)
            }
            let key = try text(try reader.lengthPrefixed())
            let metadata = RecordMetadata(
                username: try text(try reader.lengthPrefixed()),
                url: try text(try reader.lengthPrefixed()),
                syncEnabled: flags & 0b01 != 0,
                backgroundAccess: flags & 0b10 != 0
            )
            return (RecordID(service: service, key: key, kind: kind), metadata)
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

    // Switches, not a `[RecordKind: UInt8]` table: building that dictionary on first use cost a
    // quarter of a million instructions (its generic metadata and a conformance lookup), a few
    // per cent of a whole `swift-keyring get`.
    private static func byte(of kind: RecordKind) -> UInt8 {
        switch kind {
        case .credentials: 1
        case .secret: 2
        }
    }

    private static func kind(of byte: UInt8) -> RecordKind? {
        switch byte {
        case 1: .credentials
        case 2: .secret
        default: nil
        }
    }

    private static func encodeEntry(_ id: RecordID, _ metadata: RecordMetadata) -> [UInt8] {
        var bytes: [UInt8] = [byte(of: id.kind), (metadata.syncEnabled ? 0b01 : 0) | (metadata.backgroundAccess ? 0b10 : 0)]
        for field in [id.service, id.key, metadata.username, metadata.url] {
            bytes.appendLengthPrefixed(field.utf8)
        }
        return bytes
    }

    private static func text(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CryptoError.damaged(reason: "a record holds a name that is not UTF-8")
        }
        return text
    }
}
