import Glibc
import KeyringCrypto

extension KeyringFile {
    /// The bytes of a file holding `existing` and `added`, each added record sealed
    /// straight into the one buffer that is written, then dropped: an import holds
    /// the file it writes and the index, never every record's sealed copy besides
    /// (issue 14: 100,000 records imported in one write peaked at 129.5 MB).
    ///
    /// An added record replaces an existing one, or an earlier added one, with the
    /// same identity. The returned records point into the returned bytes.
    /// - Throws: what sealing throws; nothing is written then.
    static func encode(
        header: [UInt8], keeping existing: [RecordID: SealedRecord], adding added: some Sequence<StoredRecord>, keys: SealingKeys
    ) throws -> (bytes: [UInt8], records: [RecordID: SealedRecord]) {
        let start = header.count + 4
        var bytes = header
        bytes.reserveCapacity(existing.values.reduce(minimumLength) { $0 + $1.length })
        bytes.appendBigEndian(UInt32(0))  // the count, set at the end
        // Until the bytes are final, every record points into this placeholder.
        let pending = SealedBytes([])
        var records = [RecordID: SealedRecord](minimumCapacity: existing.count + added.underestimatedCount)
        for (id, record) in existing {
            records[id] = SealedRecord(storage: pending, offset: bytes.count, length: record.length)
            bytes.append(contentsOf: record.encoded)
        }
        var replaced = 0
        var reserved = false
        for record in added {
            let sealed = try RecordSealing.seal(record, keys: keys, header: header)
            if !reserved {
                // Sized once from the first record (padding makes records of small fields alike),
                // so the buffer is not doubled, and briefly held twice, as it grows.
                let expected = bytes.count + sealed.length * max(added.underestimatedCount, 1) + HMACSHA256.length
                bytes.reserveCapacity(expected + expected / 16)
                reserved = true
            }
            let slot = SealedRecord(storage: pending, offset: bytes.count, length: sealed.length)
            if records.updateValue(slot, forKey: record.id) != nil { replaced += 1 }
            bytes.append(contentsOf: sealed.encoded)
        }
        if replaced > 0 { dropReplaced(&bytes, &records, from: start) }
        guard records.count <= Int(UInt32.max) else {
            throw KeyringError.invalidRecord(field: "records", reason: "a file holds at most \(UInt32.max) records")
        }
        let count = UInt32(records.count)
        for index in 0..<4 {
            bytes[header.count + index] = UInt8(truncatingIfNeeded: count >> UInt32(24 - 8 * index))
        }
        bytes.append(contentsOf: try mac(bytes[...], keys: keys))
        let storage = SealedBytes(bytes)
        records.replaceValues { SealedRecord(storage: storage, offset: $0.offset, length: $0.length) }
        return (bytes, records)
    }

    /// Moves the records still in the index down over the bytes of those replaced
    /// since, in place, so a re-import costs no second buffer.
    private static func dropReplaced(_ bytes: inout [UInt8], _ records: inout [RecordID: SealedRecord], from start: Int) {
        // Where each live record starts now, in file order, and where it moves to.
        let offsets = records.values.map(\.offset).sorted()
        var moved = [Int: Int](minimumCapacity: offsets.count)
        var end = start
        bytes.withUnsafeMutableBytes { buffer in
            for offset in offsets {
                let length = Self.recordLength(buffer, at: offset)
                if offset != end {
                    memmove(buffer.baseAddress! + end, buffer.baseAddress! + offset, length)
                }
                moved[offset] = end
                end += length
            }
        }
        bytes.removeSubrange(end...)
        records.replaceValues { SealedRecord(storage: $0.storage, offset: moved[$0.offset]!, length: $0.length) }
    }

    /// The length of the record at `offset`: its two length-prefixed parts, prefixes included.
    private static func recordLength(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        func prefix(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        let entry = 4 + prefix(offset)
        return entry + 4 + prefix(offset + entry)
    }
}
