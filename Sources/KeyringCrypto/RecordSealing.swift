/// Seals and opens records (docs/FILE_FORMAT.md, "Records").
///
/// A record is two AEAD messages. The entry holds the names and metadata; the
/// secret holds the secret bytes. Both bind the whole header as associated data,
/// and the secret also binds its entry's nonce, so a secret cannot be moved to
/// another record or another file. Both plaintexts are padded to a multiple of
/// 32 bytes, so the file shows record sizes only roughly.
///
/// What the entry's plaintext says (the record's names and metadata) is the store's
/// business: this layer seals bytes, and lends the opened entry to a reader.
package enum RecordSealing {
    static let padding = 32

    /// Seals a record's encoded entry and its secret under `keys` for a store with this header, in a buffer of its own.
    /// - Parameters:
    ///   - entry: the entry's plaintext, unpadded; overwritten, so no copy of it stays behind.
    ///   - secret: the secret's bytes.
    package static func seal(
        entry: inout [UInt8], secret: some Collection<UInt8>, keys: SealingKeys, header: [UInt8]
    ) throws -> SealedRecord {
        pad(&entry)
        let sealedEntry = try AESGCM(key: keys.entry).seal(&entry, associatedData: entryAD(header))
        // Sized once, so no partial copy of the secret is left behind by a reallocation.
        var plainSecret = [UInt8]()
        plainSecret.reserveCapacity(4 + secret.count + padding)
        plainSecret.appendLengthPrefixed(secret)
        pad(&plainSecret)
        let sealedSecret = try AESGCM(key: keys.secret).seal(
            &plainSecret, associatedData: secretAD(header, entry: sealedEntry[...]))
        var bytes = [UInt8]()
        bytes.reserveCapacity(8 + sealedEntry.count + sealedSecret.count)
        bytes.appendLengthPrefixed(sealedEntry)
        bytes.appendLengthPrefixed(sealedSecret)
        return SealedRecord(storage: SealedBytes(bytes), offset: 0, length: bytes.count)
    }

    /// Opens a sealed entry and lets `decode` read its plaintext; the padding after what
    /// `decode` read is checked afterwards.
    /// - Parameter cipher: keyed with `keys.entry`; one cipher serves every entry of a store.
    /// - Throws: ``CryptoError/damaged(reason:)`` when it does not authenticate or does not decode, or what `decode` throws.
    package static func openEntry<Entry>(
        _ sealedEntry: ArraySlice<UInt8>, cipher: borrowing AESGCM, header: [UInt8],
        decode: (inout ByteReader) throws -> Entry
    ) throws -> Entry {
        let plaintext = try cipher.open(sealedEntry, associatedData: entryAD(header), what: "a record")
        var reader = ByteReader(plaintext, context: "a record")
        let entry = try decode(&reader)
        try checkPadding(&reader)
        return entry
    }

    /// The secret of a record, decrypted.
    /// - Parameter what: names the record for the ``CryptoError/damaged(reason:)`` reason.
    /// - Throws: ``CryptoError/damaged(reason:)`` when it does not authenticate or does not decode.
    package static func openSecret(
        _ record: SealedRecord, keys: SealingKeys, header: [UInt8], what: @autoclosure () -> String
    ) throws -> [UInt8] {
        var plaintext = try AESGCM(key: keys.secret).open(
            record.sealedSecret,
            associatedData: secretAD(header, entry: record.sealedEntry),
            what: "the secret of \(what())"
        )
        defer { plaintext.wipe() }
        var reader = ByteReader(plaintext, context: "the secret of \(what())")
        let secret = Array(try reader.lengthPrefixed())
        try checkPadding(&reader)
        return secret
    }

    /// Appends 1 to `padding` zeros, up to the next multiple of `padding`.
    private static func pad(_ bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(0, count: padding - bytes.count % padding))
    }

    private static func checkPadding(_ reader: inout ByteReader) throws {
        let rest = try reader.bytes(reader.remaining)
        guard rest.count <= padding, rest.allSatisfy({ $0 == 0 }) else {
            throw CryptoError.damaged(reason: "a record has bytes after its end")
        }
    }

    private static func entryAD(_ header: [UInt8]) -> [UInt8] {
        header + Array("entry".utf8)
    }

    private static func secretAD(_ header: [UInt8], entry: ArraySlice<UInt8>) -> [UInt8] {
        header + Array("secret".utf8) + entry.prefix(AESGCM.nonceLength)
    }
}
