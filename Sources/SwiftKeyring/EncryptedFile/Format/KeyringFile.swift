import KeyringCrypto

/// The whole keyring file: header, record count, records, and the MAC over
/// everything before it (docs/FILE_FORMAT.md).
enum KeyringFile {
    /// The smallest file: a header, a count of zero and the MAC.
    static let minimumLength = KeyedHeader.length + 4 + HMACSHA256.length

    /// The bytes of a file holding `records`, which then point into those bytes, so the
    /// buffers of records sealed since the last write, and the previous file's, can go.
    static func encode(header: [UInt8], records: inout [RecordID: SealedRecord], keys: SealingKeys) throws -> [UInt8] {
        var bytes = header
        bytes.reserveCapacity(records.values.reduce(minimumLength) { $0 + $1.length })
        bytes.appendBigEndian(UInt32(records.count))
        for record in records.values {
            bytes.append(contentsOf: record.encoded)
        }
        bytes.append(contentsOf: try mac(bytes[...], keys: keys))
        let storage = SealedBytes(bytes)
        var offset = header.count + 4
        // Values are replaced in place, in the order they were written, without rehashing any key.
        records.replaceValues { record in
            defer { offset += record.length }
            return SealedRecord(storage: storage, offset: offset, length: record.length)
        }
        return bytes
    }

    /// Authenticates a whole file and opens every record's entry (not its secret).
    ///
    /// The MAC is checked first, so any changed, missing, added or reordered byte
    /// after the header is found before anything is decrypted. The records point
    /// into `bytes`, which is not copied.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - header: its header, already decoded and verified against `keys`.
    /// - Throws: `.damaged` naming what is wrong.
    static func decode(_ bytes: [UInt8], header: [UInt8], keys: SealingKeys) throws -> [RecordID: SealedRecord] {
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
        let storage = SealedBytes(bytes)
        var records = [RecordID: SealedRecord](minimumCapacity: min(count, reader.remaining / 8))
        var service: String?
        for _ in 0..<count {
            let start = reader.offset
            let entry = try reader.lengthPrefixed()
            _ = try reader.lengthPrefixed()
            let (id, _) = try RecordSealing.openEntry(entry, cipher: cipher, header: header, service: service)
            service = id.service
            let record = SealedRecord(storage: storage, offset: start, length: reader.offset - start)
            guard records.updateValue(record, forKey: id) == nil else {
                throw KeyringError.damaged(reason: "the record \(id) appears twice")
            }
        }
        guard reader.remaining == 0 else {
            throw KeyringError.damaged(reason: "the file has bytes after its last record")
        }
        return records
    }

    static func mac(_ bytes: ArraySlice<UInt8>, keys: SealingKeys) throws -> [UInt8] {
        let mac = try HMACSHA256(key: keys.fileMAC)
        try mac.update(bytes)
        return try mac.finish()
    }
}
