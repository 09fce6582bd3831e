internal import CGcrypt

/// PBKDF2-HMAC-SHA256 (RFC 8018) through libgcrypt: the key derivation of libsecret's
/// own keyring file, which derives a 16-byte AES key from its password this way.
///
/// It is here for that format only; our own file uses Argon2id (see ``KeyDerivation``).
package enum PBKDF2 {
    /// The key for `password` and `salt` after `iterations` rounds, `length` bytes long, in secure memory.
    ///
    /// The caller bounds `iterations`: the cost is linear in it and this call cannot be interrupted.
    /// - Throws: ``CryptoError/library(code:message:)`` when libgcrypt refuses the parameters or fails.
    package static func sha256(password: SecureBytes, salt: [UInt8], iterations: Int, length: Int) throws -> SecureBytes {
        precondition(iterations > 0 && length > 0, "PBKDF2 needs at least one iteration and one byte of output")
        try Gcrypt.ensureReady()
        return try SecureBytes(count: length) { key in
            try password.withBytes { secret in
                try Gcrypt.check(
                    gcry_kdf_derive(
                        secret.baseAddress, secret.count,
                        Int32(GCRY_KDF_PBKDF2.rawValue), Int32(GCRY_MD_SHA256.rawValue),
                        salt, salt.count,
                        UInt(iterations), length, key.baseAddress
                    ),
                    "deriving a key with PBKDF2-HMAC-SHA256"
                )
            }
        }
    }

    /// `length` bytes from libgcrypt's strong random generator, for a new salt.
    package static func newSalt(length: Int) throws -> [UInt8] {
        try Gcrypt.ensureReady()
        var salt = [UInt8](repeating: 0, count: length)
        gcry_randomize(&salt, length, GCRY_STRONG_RANDOM)
        return salt
    }
}
