internal import CGcrypt

/// The two ways keys are derived: Argon2id from a passphrase, and HKDF-SHA256
/// (RFC 5869) from a master or shared key to one key per purpose.
package enum KeyDerivation {
    /// The length of every key, in bytes.
    package static let keyLength = 32

    /// The 32-byte master key for `passphrase`, with Argon2id (version 1.3).
    /// - Throws: ``CryptoError/library(code:message:)`` when libgcrypt fails (for example, out of memory).
    package static func argon2id(passphrase: SecureBytes, salt: [UInt8], parameters: Argon2idParameters) throws -> SecureBytes {
        let cost: [UInt] = [
            UInt(keyLength), UInt(parameters.iterations), UInt(parameters.memoryKiB), UInt(parameters.parallelism),
        ]
        var handle: gcry_kdf_hd_t?
        try passphrase.withBytes { secret in
            try Gcrypt.check(
                gcry_kdf_open(
                    &handle, Int32(GCRY_KDF_ARGON2.rawValue), Int32(GCRY_KDF_ARGON2ID.rawValue),
                    cost, UInt32(cost.count),
                    secret.baseAddress, secret.count,
                    salt, salt.count,
                    nil, 0, nil, 0
                ),
                "starting Argon2id"
            )
        }
        defer { gcry_kdf_close(handle) }
        try Gcrypt.check(gcry_kdf_compute(handle, nil), "computing Argon2id")
        return try SecureBytes(count: keyLength) { master in
            try Gcrypt.check(gcry_kdf_final(handle, keyLength, master.baseAddress), "finishing Argon2id")
        }
    }

    /// HKDF-Extract: the pseudorandom key from the master key and the file's salt.
    package static func extract(master: SecureBytes, salt: [UInt8]) throws -> SecureBytes {
        try SecureBytes(count: keyLength) { prk in
            let mac = try HMACSHA256(key: salt)
            try master.withBytes { try mac.update($0) }
            try mac.finish(into: prk)
        }
    }

    /// HKDF-Expand for one 32-byte block: the key for the purpose named by `info`.
    package static func expand(_ prk: SecureBytes, info: String) throws -> SecureBytes {
        try expand(prk, info: info, length: keyLength)
    }

    /// HKDF-Expand for one block, the first `length` bytes of it (at most 32).
    package static func expand(_ prk: SecureBytes, info: String, length: Int) throws -> SecureBytes {
        precondition(length > 0 && length <= HMACSHA256.length, "one HKDF-SHA256 block is 32 bytes")
        let mac = try HMACSHA256(key: prk)
        let block = try firstBlock(mac, info: info)
        guard length < block.count else { return block }
        return try block.withBytes { try SecureBytes(copying: $0.prefix(length)) }
    }

    /// HKDF-Expand for one 32-byte block per purpose in `infos`, in their order: the same keys
    /// as one ``expand(_:info:)`` each, with `prk` set up as the HMAC key once, not once per key.
    package static func expand(_ prk: SecureBytes, infos: [String]) throws -> [SecureBytes] {
        let mac = try HMACSHA256(key: prk)
        var keys: [SecureBytes] = []
        keys.reserveCapacity(infos.count)
        for info in infos {
            if !keys.isEmpty { try mac.reset() }
            keys.append(try firstBlock(mac, info: info))
        }
        return keys
    }

    /// HKDF-Expand's first block, T(1) = HMAC(PRK, info || 0x01), from a MAC keyed with the PRK.
    private static func firstBlock(_ mac: borrowing HMACSHA256, info: String) throws -> SecureBytes {
        try SecureBytes(count: HMACSHA256.length) { block in
            try mac.update(Array(info.utf8) + [0x01])
            try mac.finish(into: block)
        }
    }
}
