internal import CGcrypt

/// The plaintext header of a sealed store (the keyring file's, and the one an etcd
/// keyspace keeps): what is needed to derive the keys and to tell a wrong passphrase
/// from damage, checked by a key check (docs/FILE_FORMAT.md, "Header").
package struct KeyedHeader: Sendable, Equatable {
    /// How the master key is made.
    package enum KeySource: UInt8, Sendable {
        /// A raw 32-byte key, used as it is.
        case rawKey = 0
        /// Argon2id over the passphrase, with the header's parameters and salt.
        case argon2id = 1
    }

    package static let magic: [UInt8] = [0x89, 0x53, 0x4B, 0x52, 0x0D, 0x0A, 0x1A, 0x0A]
    package static let formatVersion: UInt16 = 1
    /// AES-256-GCM, the only AEAD of version 1.
    package static let aeadID: UInt8 = 1
    package static let saltLength = 32
    /// Magic through salt: the bytes the key check covers.
    package static let checkedLength = 56
    package static let checksumLength = 8
    package static let length = checkedLength + HMACSHA256.length + checksumLength

    package var keySource: KeySource
    /// Argon2id's cost; `nil` for a raw key.
    package var parameters: Argon2idParameters?
    package var salt: [UInt8]
    package var keyCheck: [UInt8]

    /// A header for a new store, with a fresh random salt and its key check.
    /// - Parameters:
    ///   - keySource: how the master key is made.
    ///   - parameters: Argon2id's cost, used when `keySource` is `.argon2id`.
    ///   - masterKey: the master key for the new header (Argon2id runs here, with its salt).
    /// - Returns: the header and the keys it was made for.
    package static func new(
        keySource: KeySource, parameters: Argon2idParameters, masterKey: (KeyedHeader) throws -> SecureBytes
    ) throws -> (KeyedHeader, SealingKeys) {
        try Gcrypt.ensureReady()
        var salt = [UInt8](repeating: 0, count: saltLength)
        gcry_randomize(&salt, saltLength, GCRY_STRONG_RANDOM)
        var header = KeyedHeader(
            keySource: keySource,
            parameters: keySource == .argon2id ? parameters : nil,
            salt: salt,
            keyCheck: []
        )
        let keys = try SealingKeys(master: try masterKey(header), salt: salt)
        header.keyCheck = try header.expectedKeyCheck(keys)
        return (header, keys)
    }

    /// Magic, version, key source, AEAD, KDF parameters and salt.
    package var checkedBytes: [UInt8] {
        var bytes = Self.magic
        bytes.appendBigEndian(Self.formatVersion)
        bytes.append(keySource.rawValue)
        bytes.append(Self.aeadID)
        bytes.appendBigEndian(parameters?.iterations ?? 0)
        bytes.appendBigEndian(parameters?.memoryKiB ?? 0)
        bytes.appendBigEndian(parameters?.parallelism ?? 0)
        bytes.append(contentsOf: salt)
        return bytes
    }

    /// All 96 bytes, checksum included.
    package var encoded: [UInt8] {
        var bytes = checkedBytes + keyCheck
        bytes.append(contentsOf: Self.checksum(bytes))
        return bytes
    }

    /// The key check these keys give for this header.
    func expectedKeyCheck(_ keys: SealingKeys) throws -> [UInt8] {
        let mac = try HMACSHA256(key: keys.check)
        try mac.update(checkedBytes)
        return try mac.finish()
    }

    /// Throws ``CryptoError/wrongKey`` unless `keys` are the ones this header was written with.
    package func verify(_ keys: SealingKeys) throws {
        guard ConstantTime.equal(try expectedKeyCheck(keys), keyCheck) else {
            throw CryptoError.wrongKey
        }
    }

    /// Reads the header at the start of `bytes`.
    ///
    /// The order of the checks decides the error: not our file, then a version
    /// this build cannot read, then any changed byte (the checksum), then values
    /// no writer makes. A wrong key is found later, by `verify`.
    /// - Throws: ``CryptoError/damaged(reason:)`` naming what is wrong.
    package static func decode(_ bytes: [UInt8]) throws -> KeyedHeader {
        try Gcrypt.ensureReady()
        guard bytes.count >= magic.count, bytes.starts(with: magic) else {
            throw CryptoError.damaged(reason: bytes.isEmpty ? "the file is empty" : "it is not a swift-keyring file")
        }
        var reader = ByteReader(bytes, from: magic.count, context: "the header")
        let version = try reader.uint16()
        guard version == formatVersion else {
            throw CryptoError.damaged(
                reason: "it has format version \(version), and this build reads version \(formatVersion) only")
        }
        guard bytes.count >= length else {
            throw CryptoError.damaged(reason: "the header ends early (the file is \(bytes.count) bytes)")
        }
        guard ConstantTime.equal(checksum(bytes[0..<(length - checksumLength)]), bytes[(length - checksumLength)..<length]) else {
            throw CryptoError.damaged(reason: "the header's checksum does not match")
        }
        let sourceByte = try reader.uint8()
        guard let keySource = KeySource(rawValue: sourceByte) else {
            throw CryptoError.damaged(reason: "the header names an unknown key derivation (\(sourceByte))")
        }
        let aead = try reader.uint8()
        guard aead == aeadID else {
            throw CryptoError.damaged(reason: "the header names an unknown cipher (\(aead))")
        }
        let cost = Argon2idParameters(
            iterations: try reader.uint32(), memoryKiB: try reader.uint32(), parallelism: try reader.uint32())
        let parameters: Argon2idParameters?
        switch keySource {
        case .rawKey:
            guard cost == Argon2idParameters(iterations: 0, memoryKiB: 0, parallelism: 0) else {
                throw CryptoError.damaged(reason: "the header gives KDF parameters for a raw key")
            }
            parameters = nil
        case .argon2id:
            if let problem = cost.problem {
                throw CryptoError.damaged(reason: "the header's Argon2id parameters are out of range: \(problem)")
            }
            parameters = cost
        }
        let salt = Array(try reader.bytes(saltLength))
        let keyCheck = Array(try reader.bytes(HMACSHA256.length))
        return KeyedHeader(keySource: keySource, parameters: parameters, salt: salt, keyCheck: keyCheck)
    }

    /// The first 8 bytes of SHA-256: catches accidental damage to the header,
    /// so a changed salt or parameter is reported as damage rather than as a wrong passphrase.
    private static func checksum(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(SHA256.digest(bytes).prefix(checksumLength))
    }
}
