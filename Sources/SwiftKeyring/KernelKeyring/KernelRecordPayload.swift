import KeyringCrypto

/// What a record's key in the kernel store holds: the record's entry (``RecordEntry``, the
/// encrypted file's layout, here in the clear, for the kernel keeps it in its own memory,
/// readable by the key's possessors and owner only) and its secret.
///
/// A key of type `user` holds at most 32,767 bytes, and a record may hold a 16 MiB secret.
/// So a record that fits is one key, `1 ‖ entry (behind its 32-bit length) ‖ secret`; a larger
/// one keeps its secret in parts, keys of their own written before it, and its key says where:
/// `2 ‖ entry ‖ generation (64 bits) ‖ secret length (32 bits) ‖ part count (32 bits)`. A write
/// replaces the record's key in one step, so a reader sees the old record or the new one.
struct KernelRecordPayload {
    /// Where a record's secret is.
    enum Secret {
        /// In the record's own key.
        case whole([UInt8])
        /// In `count` part keys named with `generation` (``KernelRecordName/part(_:_:)``), `length` bytes in all.
        case parts(generation: UInt64, length: Int, count: Int)
    }

    let id: RecordID
    let metadata: RecordMetadata
    private(set) var secret: Secret

    private static let wholeFormat: UInt8 = 1
    private static let partsFormat: UInt8 = 2

    /// The payload of `record` in one key; `nil` when it does not fit.
    static func whole(_ record: StoredRecord) -> [UInt8]? {
        var entry = RecordEntry.encode(record.id, record.metadata)
        defer { entry.wipe() }
        guard 5 + entry.count + record.secret.count <= KernelKeyring.largestUserPayload else { return nil }
        var bytes = [wholeFormat]
        bytes.reserveCapacity(5 + entry.count + record.secret.count)
        bytes.appendLengthPrefixed(entry)
        bytes.append(contentsOf: record.secret)
        return bytes
    }

    /// The payload of `record`'s key when its secret is in `count` parts written as `generation`.
    static func head(_ record: StoredRecord, generation: UInt64, count: Int) -> [UInt8] {
        var bytes = [partsFormat]
        bytes.appendLengthPrefixed(RecordEntry.encode(record.id, record.metadata))
        bytes.append(contentsOf: withUnsafeBytes(of: generation.bigEndian, Array.init))
        bytes.appendBigEndian(UInt32(record.secret.count))
        bytes.appendBigEndian(UInt32(count))
        return bytes
    }

    /// Wipes the secret's bytes, for a reader that wanted the metadata alone. The bytes are
    /// taken out of `secret` first, so the buffer has one owner when it is wiped, not two.
    mutating func wipeSecret() {
        guard case .whole(var bytes) = secret else { return }
        secret = .whole([])
        bytes.wipe()
    }

    /// The size of each part of a secret kept in parts.
    static let partSize = KernelKeyring.largestUserPayload

    /// Reads a record's payload; with `secret` false (a reader that wants the metadata alone) a
    /// secret kept whole is left in `bytes`, never copied, so the caller's wipe of `bytes` is the
    /// only one needed (a copy's wipe could land on yet another copy, copy-on-write).
    /// - Throws: `.damaged` when it is not one this store wrote.
    static func decode(_ bytes: [UInt8], service: String, secret wanted: Bool = true) throws -> KernelRecordPayload {
        try KeyringError.translatingCrypto {
            var reader = ByteReader(bytes, context: "a record in the kernel keyring")
            let format = try reader.uint8()
            var entry = ByteReader(Array(try reader.lengthPrefixed()), context: "a record in the kernel keyring")
            let (id, metadata) = try RecordEntry.decode(&entry, service: service)
            switch format {
            case wholeFormat:
                return KernelRecordPayload(
                    id: id, metadata: metadata, secret: .whole(wanted ? Array(try reader.bytes(reader.remaining)) : []))
            case partsFormat:
                let generation = try reader.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let length = Int(try reader.uint32())
                let count = Int(try reader.uint32())
                guard count == (length + partSize - 1) / partSize else {
                    throw CryptoError.damaged(reason: "a record in the kernel keyring has a wrong part count")
                }
                return KernelRecordPayload(
                    id: id, metadata: metadata, secret: .parts(generation: generation, length: length, count: count))
            default:
                throw CryptoError.damaged(reason: "a record in the kernel keyring has an unknown format")
            }
        }
    }
}
