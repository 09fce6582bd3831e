internal import KeyringCrypto

/// A record's identity and metadata as bytes, in the layout of docs/FILE_FORMAT.md ("Records"):
/// a kind byte, a flags byte, then the service, key, username and URL, each behind a 32-bit length.
///
/// Written once, for the two stores that keep records as bytes: the encrypted file seals it,
/// the kernel store keeps it as it is in a key's payload (kernel memory, readable by its possessors).
enum RecordEntry {
    /// The bytes of `id` and `metadata`.
    static func encode(_ id: RecordID, _ metadata: RecordMetadata) -> [UInt8] {
        var bytes: [UInt8] = [byte(of: id.kind), (metadata.syncEnabled ? 0b01 : 0) | (metadata.backgroundAccess ? 0b10 : 0)]
        for field in [id.service, id.key, metadata.username, metadata.url] {
            bytes.appendLengthPrefixed(field.utf8)
        }
        return bytes
    }

    /// Reads an entry from `reader`.
    /// - Parameter known: a service name already decoded, reused when this entry names the
    ///   same service, so the records of one service share one string.
    /// - Throws: ``CryptoError/damaged(reason:)`` when it does not decode.
    static func decode(_ reader: inout ByteReader, service known: String? = nil) throws -> (RecordID, RecordMetadata) {
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

    private static func text(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let text = ExactUTF8.string(bytes) else {
            throw CryptoError.damaged(reason: "a record holds a name that is not UTF-8")
        }
        return text
    }
}
