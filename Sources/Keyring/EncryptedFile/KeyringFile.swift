/// The whole keyring file: header, record count, records, and the MAC over
/// everything before it (docs/FILE_FORMAT.md).
enum KeyringFile {
    /// The smallest file: a header, a count of zero and the MAC.
    static let minimumLength = FileHeader.length + 4 + HMACSHA256.length

    /// The bytes of a file holding `records`.
    static func encode(header: [UInt8], records: some Collection<SealedRecord>, keys: FileKeys) throws -> [UInt8] {
        var bytes = header
        bytes.reserveCapacity(records.reduce(minimumLength) { $0 + 8 + $1.sealedEntry.count + $1.sealedSecret.count })
        bytes.appendBigEndian(UInt32(records.count))
        for record in records {
            bytes.appendLengthPrefixed(record.sealedEntry)
            bytes.appendLengthPrefixed(record.sealedSecret)
        }
        bytes.append(contentsOf: try mac(bytes[...], keys: keys))
        return bytes
    }

    /// Authenticates a whole file and opens every record's entry (not its secret).
    ///
    /// The MAC is checked first, so any changed, missing, added or reordered byte
    /// after the header is found before anything is decrypted.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - header: its header, already decoded and verified against `keys`.
    /// - Throws: `.damaged` naming what is wrong.
    static func decode(_ bytes: [UInt8], header: [UInt8], keys: FileKeys) throws -> [RecordID: SealedRecord] {
        guard bytes.count >= minimumLength else {
            throw KeyringError.damaged(reason: "the file ends early (\(bytes.count) bytes)")
        }
        let body = bytes[..<(bytes.count - HMACSHA256.length)]
        guard ConstantTime.equal(try mac(body, keys: keys), bytes[body.endIndex...]) else {
            throw KeyringError.damaged(reason: "the file's MAC does not match: bytes were changed, added or removed")
        }
        var reader = ByteReader(bytes, from: header.count, to: body.endIndex, context: "the record list")
        let count = Int(try reader.uint32())
        let cipher = try AESGCM(key: keys.entry)
        var records = [RecordID: SealedRecord](minimumCapacity: min(count, reader.remaining / 8))
        for _ in 0..<count {
            let entry = Array(try reader.lengthPrefixed())
            let secret = Array(try reader.lengthPrefixed())
            let record = try RecordSealing.openEntry(sealedEntry: entry, sealedSecret: secret, cipher: cipher, header: header)
            guard records.updateValue(record, forKey: record.id) == nil else {
                throw KeyringError.damaged(reason: "the record \(record.id) appears twice")
            }
        }
        guard reader.remaining == 0 else {
            throw KeyringError.damaged(reason: "the file has bytes after its last record")
        }
        return records
    }

    private static func mac(_ bytes: ArraySlice<UInt8>, keys: FileKeys) throws -> [UInt8] {
        let mac = try HMACSHA256(key: keys.fileMAC)
        try mac.update(bytes)
        return try mac.finish()
    }
}
