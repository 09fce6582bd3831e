/// Seals and opens records (docs/FILE_FORMAT.md, "Records").
///
/// A record is two AEAD messages. The entry holds the names and metadata; the
/// secret holds the secret bytes. Both bind the whole header as associated data,
/// and the secret also binds its entry's nonce, so a secret cannot be moved to
/// another record or another file. Both plaintexts are padded to a multiple of
/// 32 bytes, so the file shows record sizes only roughly.
package enum RecordSealing {
    static let padding = 32

    /// Seals `record` under `keys` for a file with this header, in a buffer of its own.
    package static func seal(_ record: StoredRecord, keys: FileKeys, header: [UInt8]) throws -> SealedRecord {
        var entry = encodeEntry(record.id, record.metadata)
        pad(&entry)
        let sealedEntry = try AESGCM(key: keys.entry).seal(&entry, associatedData: entryAD(header))
        // Sized once, so no partial copy of the secret is left behind by a reallocation.
        var secret = [UInt8]()
        secret.reserveCapacity(4 + record.secret.count + padding)
        secret.appendLengthPrefixed(record.secret)
        pad(&secret)
        let sealedSecret = try AESGCM(key: keys.secret).seal(&secret, associatedData: secretAD(header, entry: sealedEntry[...]))
        var bytes = [UInt8]()
        bytes.reserveCapacity(8 + sealedEntry.count + sealedSecret.count)
        bytes.appendLengthPrefixed(sealedEntry)
        bytes.appendLengthPrefixed(sealedSecret)
        return SealedRecord(storage: SealedBytes(bytes), offset: 0, length: bytes.count)
    }

    /// Opens a sealed entry: the identity and metadata in it.
    /// - Parameters:
    ///   - cipher: keyed with `keys.entry`; one cipher serves every entry of a file.
    ///   - service: a service name already decoded, reused when this entry names the
    ///     same service, so the records of one service share one string.
    /// - Throws: `.damaged` when it does not authenticate or does not decode.
    package static func openEntry(
        _ sealedEntry: ArraySlice<UInt8>, cipher: borrowing AESGCM, header: [UInt8], service known: String? = nil
    ) throws -> (RecordID, RecordMetadata) {
        let plaintext = try cipher.open(sealedEntry, associatedData: entryAD(header), what: "a record")
        var reader = ByteReader(plaintext, context: "a record")
        let kindByte = try reader.uint8()
        let flags = try reader.uint8()
        guard let kind = kinds.first(where: { $0.value == kindByte })?.key, flags & ~0b11 == 0 else {
            throw KeyringError.damaged(reason: "a record has an unknown kind or flags")
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
        try checkPadding(&reader)
        return (RecordID(service: service, key: key, kind: kind), metadata)
    }

    /// The metadata of a record, decrypted.
    /// - Throws: `.damaged` when its entry does not authenticate or does not decode.
    static func openMetadata(_ record: SealedRecord, cipher: borrowing AESGCM, header: [UInt8]) throws -> RecordMetadata {
        try openEntry(record.sealedEntry, cipher: cipher, header: header).1
    }

    /// The whole record under `id`: its metadata and its secret, decrypted.
    /// - Throws: `.damaged` when a part does not authenticate or does not decode.
    package static func open(_ record: SealedRecord, id: RecordID, keys: FileKeys, header: [UInt8]) throws -> StoredRecord {
        let metadata = try openMetadata(record, cipher: try AESGCM(key: keys.entry), header: header)
        return StoredRecord(id: id, metadata: metadata, secret: try openSecret(record, id: id, keys: keys, header: header))
    }

    /// The secret of the record under `id`, decrypted.
    /// - Throws: `.damaged` when it does not authenticate or does not decode.
    private static func openSecret(_ record: SealedRecord, id: RecordID, keys: FileKeys, header: [UInt8]) throws -> [UInt8] {
        var plaintext = try AESGCM(key: keys.secret).open(
            record.sealedSecret,
            associatedData: secretAD(header, entry: record.sealedEntry),
            what: "the secret of \(id)"
        )
        defer { plaintext.wipe() }
        var reader = ByteReader(plaintext, context: "the secret of \(id)")
        let secret = Array(try reader.lengthPrefixed())
        try checkPadding(&reader)
        return secret
    }

    private static let kinds: [RecordKind: UInt8] = [.credentials: 1, .secret: 2]

    private static func encodeEntry(_ id: RecordID, _ metadata: RecordMetadata) -> [UInt8] {
        var bytes: [UInt8] = [kinds[id.kind]!, (metadata.syncEnabled ? 0b01 : 0) | (metadata.backgroundAccess ? 0b10 : 0)]
        for field in [id.service, id.key, metadata.username, metadata.url] {
            bytes.appendLengthPrefixed(field.utf8)
        }
        return bytes
    }

    private static func text(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KeyringError.damaged(reason: "a record holds a name that is not UTF-8")
        }
        return text
    }

    /// Appends 1 to `padding` zeros, up to the next multiple of `padding`.
    private static func pad(_ bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(0, count: padding - bytes.count % padding))
    }

    private static func checkPadding(_ reader: inout ByteReader) throws {
        let rest = try reader.bytes(reader.remaining)
        guard rest.count <= padding, rest.allSatisfy({ $0 == 0 }) else {
            throw KeyringError.damaged(reason: "a record has bytes after its end")
        }
    }

    private static func entryAD(_ header: [UInt8]) -> [UInt8] {
        header + Array("entry".utf8)
    }

    private static func secretAD(_ header: [UInt8], entry: ArraySlice<UInt8>) -> [UInt8] {
        header + Array("secret".utf8) + entry.prefix(AESGCM.nonceLength)
    }
}
