extension Keyring {
    /// The password stored under `key` as its UTF-8 bytes, or `nil`: `password(forKey:)` for a
    /// caller that writes the password out and wipes it (the tool's `get`), since the storage of
    /// a `String` cannot be wiped and is freed with the password in it.
    /// - Throws: as `password(forKey:)`; `.invalidRecord` naming `password` when the bytes are not UTF-8.
    package func passwordBytes(forKey key: String) throws -> [UInt8]? {
        let id = try recordID(key, .credentials)
        guard var secret = try readSecret(id, call: startCall()) else { return nil }
        guard Self.isUTF8(secret) else {
            secret.wipe()
            throw KeyringError.invalidRecord(field: "password", reason: "the stored bytes of \(id) are not UTF-8 text")
        }
        return secret
    }

    /// Whether `bytes` are UTF-8, as `String(validating:as:)` judges, without making a string of them.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
