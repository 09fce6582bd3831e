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

    /// The credentials stored under `key` with their password as its UTF-8 bytes, beside it, and
    /// an empty `password` in the credentials; `nil` when there are none: `credentials(forKey:)`
    /// for a caller that writes the whole record out and wipes the bytes (the tool's `get --json`).
    /// - Throws: as `credentials(forKey:)`, with the same refusals of a record that is not valid.
    package func credentialsAndPasswordBytes(forKey key: String) throws -> (credentials: Credentials, password: [UInt8])? {
        let id = try recordID(key, .credentials)
        guard var record = try readRecord(id, call: startCall()) else { return nil }
        // The bytes themselves are handed on (no copy), and the record is left an empty secret.
        var password: [UInt8] = []
        swap(&password, &record.secret)
        do {
            guard Self.isUTF8(password) else {
                throw KeyringError.invalidRecord(field: "password", reason: "the stored bytes of \(id) are not UTF-8 text")
            }
            guard password.count <= RecordValidation.maximumPasswordBytes else {
                throw KeyringError.invalidRecord(field: "password", reason: "is longer than 1 MiB")
            }
            return (try Credentials(record: record), password)
        } catch {
            password.wipe()
            throw error
        }
    }

    /// Stores `credentials` under `key` with `password`'s bytes as the password, and wipes them:
    /// `set(_:forKey:)` for a caller that read the password as bytes (the tool's `set` from a pipe),
    /// so it never becomes a `String`. `credentials.password` is not used; give it empty.
    /// - Throws: as `set(_:forKey:)`; `.invalidRecord` naming `password` when the bytes are not
    ///   UTF-8 or longer than 1 MiB (nothing is stored then).
    package func set(_ credentials: Credentials, passwordBytes password: consuming [UInt8], forKey key: String) throws {
        var password = consume password
        defer { password.wipe() }
        let id = try recordID(key, .credentials)
        try credentials.validate()
        guard Self.isUTF8(password) else {
            throw KeyringError.invalidRecord(field: "password", reason: "is not UTF-8 text")
        }
        guard password.count <= RecordValidation.maximumPasswordBytes else {
            throw KeyringError.invalidRecord(field: "password", reason: "is longer than 1 MiB")
        }
        var record = credentials.storedRecord(id: id)
        // The record takes the bytes themselves (no copy); `password` is left the record's empty secret.
        swap(&record.secret, &password)
        defer { record.secret.wipe() }  // once the store has sealed or copied them
        let place = try write(record, call: startCall())
        logger.debug("stored credentials", metadata: ["service": "\(service)", "key": "\(key)", "place": "\(place)"])
    }

    /// Whether `bytes` are UTF-8, as `String(validating:as:)` judges, without making a string of them.
    package static func isUTF8(_ bytes: some Sequence<UInt8>) -> Bool {
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
