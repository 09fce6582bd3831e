internal import CGcrypt

/// AES-256-GCM through libgcrypt: one handle, keyed once, sealing or opening
/// many messages, each with its own fresh nonce.
///
/// A sealed message is `nonce (12) ‖ ciphertext ‖ tag (16)`.
package struct AESGCM: ~Copyable {
    package static let nonceLength = 12
    package static let tagLength = 16
    package static let overhead = nonceLength + tagLength

    private let handle: gcry_cipher_hd_t

    /// A cipher keyed with `key`, its state in secure memory.
    package init(key: SecureBytes) throws {
        handle = try Gcrypt.openCipher(GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM, key: key, name: "AES-256-GCM")
    }

    deinit {
        gcry_cipher_close(handle)
    }

    /// Encrypts `plaintext` under a fresh random nonce, binding `associatedData`.
    /// The plaintext buffer is overwritten, so no copy of it stays behind.
    package func seal(_ plaintext: inout [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: Self.overhead + plaintext.count)
        let count = plaintext.count
        try sealed.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            gcry_create_nonce(base, Self.nonceLength)
            try start(nonce: UnsafeRawBufferPointer(start: base, count: Self.nonceLength), associatedData: associatedData)
            try plaintext.withUnsafeMutableBytes { input in
                try Gcrypt.check(
                    gcry_cipher_encrypt(handle, base + Self.nonceLength, count, input.baseAddress, count),
                    "encrypting with AES-256-GCM"
                )
                input.initializeMemory(as: UInt8.self, repeating: 0)
            }
            try Gcrypt.check(gcry_cipher_gettag(handle, base + Self.nonceLength + count, Self.tagLength), "reading a GCM tag")
        }
        return sealed
    }

    /// Decrypts and authenticates a sealed message.
    /// - Parameter what: names the message for the `.damaged` reason.
    /// - Throws: `.damaged` when the message was changed, cut, or sealed with another key or other associated data.
    package func open(_ sealed: ArraySlice<UInt8>, associatedData: [UInt8], what: @autoclosure () -> String) throws -> [UInt8] {
        guard sealed.count >= Self.overhead else {
            throw CryptoError.damaged(reason: "\(what()) is too short")
        }
        let count = sealed.count - Self.overhead
        var plaintext = [UInt8](repeating: 0, count: count)
        let tagMatches = try sealed.withUnsafeBytes { input in
            let base = input.baseAddress!
            try start(nonce: UnsafeRawBufferPointer(start: base, count: Self.nonceLength), associatedData: associatedData)
            try plaintext.withUnsafeMutableBytes { output in
                try Gcrypt.check(
                    gcry_cipher_decrypt(handle, output.baseAddress, count, base + Self.nonceLength, count),
                    "decrypting with AES-256-GCM"
                )
            }
            let result = gcry_cipher_checktag(handle, base + Self.nonceLength + count, Self.tagLength)
            if Gcrypt.isChecksumMismatch(result) { return false }
            try Gcrypt.check(result, "checking a GCM tag")
            return true
        }
        guard tagMatches else {
            plaintext.wipe()
            throw CryptoError.damaged(reason: "\(what()) does not authenticate")
        }
        return plaintext
    }

    private func start(nonce: UnsafeRawBufferPointer, associatedData: [UInt8]) throws {
        try Gcrypt.check(gcry_cipher_setiv(handle, nonce.baseAddress, nonce.count), "setting a GCM nonce")
        try Gcrypt.check(gcry_cipher_authenticate(handle, associatedData, associatedData.count), "adding GCM associated data")
    }
}
