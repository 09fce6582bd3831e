extension SealedRecord {
    /// A record kept on its own, as `encoded` gave it, by a store that keeps each
    /// record as a value of its own (the etcd store) rather than in one file.
    ///
    /// Both length prefixes are checked here, because `sealedEntry` and
    /// `sealedSecret` trust them.
    /// - Throws: `.damaged` when the bytes are not one entry and one secret, exactly.
    package init(standalone bytes: [UInt8]) throws {
        var reader = ByteReader(bytes, context: "a record")
        _ = try reader.lengthPrefixed()
        _ = try reader.lengthPrefixed()
        guard reader.remaining == 0 else {
            throw CryptoError.damaged(reason: "a record has bytes after its end")
        }
        self.init(storage: SealedBytes(bytes), offset: 0, length: bytes.count)
    }
}
