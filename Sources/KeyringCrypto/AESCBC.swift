internal import CGcrypt

/// AES-CBC with PKCS#7 padding through libgcrypt, its state in secure memory: the
/// cipher of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` transfer.
///
/// CBC is what that specification names; it has no integrity of its own, which
/// the bus's own protection (a local socket to a trusted daemon) stands in for.
package struct AESCBC: ~Copyable {
    /// The block and the IV length, in bytes.
    package static let blockLength = 16

    private let handle: gcry_cipher_hd_t

    /// A cipher keyed with `key` (16 bytes: AES-128; 32: AES-256).
    package init(key: SecureBytes) throws {
        let algorithm = key.count == 16 ? GCRY_CIPHER_AES : GCRY_CIPHER_AES256
        handle = try Gcrypt.openCipher(algorithm, GCRY_CIPHER_MODE_CBC, key: key, name: "AES-CBC")
    }

    deinit {
        gcry_cipher_close(handle)
    }

    /// Pads `plaintext` (PKCS#7: 1 to 16 bytes, each holding the count) and encrypts
    /// it under a fresh random IV; the padded plaintext lives in secure memory only.
    /// - Returns: the IV and the ciphertext.
    package func seal(_ plaintext: UnsafeRawBufferPointer) throws -> (iv: [UInt8], ciphertext: [UInt8]) {
        let padding = Self.blockLength - plaintext.count % Self.blockLength
        let padded = try SecureBytes(count: plaintext.count + padding, orOrdinaryMemory: true) { buffer in
            buffer.copyMemory(from: plaintext)
            buffer[plaintext.count...].initializeMemory(as: UInt8.self, repeating: UInt8(padding))
        }
        var iv = [UInt8](repeating: 0, count: Self.blockLength)
        gcry_create_nonce(&iv, iv.count)
        try Gcrypt.check(gcry_cipher_setiv(handle, iv, iv.count), "setting an AES-CBC IV")
        var ciphertext = [UInt8](repeating: 0, count: padded.count)
        try padded.withBytes { input in
            try ciphertext.withUnsafeMutableBytes { output in
                try Gcrypt.check(
                    gcry_cipher_encrypt(handle, output.baseAddress, output.count, input.baseAddress, input.count),
                    "encrypting with AES-CBC")
            }
        }
        return (iv, ciphertext)
    }

    /// Decrypts and unpads; the plaintext lands in secure memory when the pool has room.
    /// - Throws: ``CryptoError/damaged(reason:)`` when the IV, the length or the padding is not what sealing makes.
    package func open(iv: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer) throws -> SecureBytes {
        guard iv.count == Self.blockLength, ciphertext.count > 0, ciphertext.count % Self.blockLength == 0 else {
            throw CryptoError.damaged(reason: "the secret's IV or length is not AES-CBC's")
        }
        try Gcrypt.check(gcry_cipher_setiv(handle, iv.baseAddress, iv.count), "setting an AES-CBC IV")
        return try SecureBytes(capacity: ciphertext.count, orOrdinaryMemory: true) { plain in
            try Gcrypt.check(
                gcry_cipher_decrypt(handle, plain.baseAddress, plain.count, ciphertext.baseAddress, ciphertext.count),
                "decrypting with AES-CBC")
            let padding = Int(plain[plain.count - 1])
            guard padding >= 1, padding <= Self.blockLength,
                plain[(plain.count - padding)...].allSatisfy({ $0 == UInt8(padding) })
            else {
                throw CryptoError.damaged(reason: "the secret's padding is not PKCS#7")
            }
            return plain.count - padding
        }
    }
}
