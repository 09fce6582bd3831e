internal import CGcrypt

/// SHA-256 of bytes that are not secret (headers, salts): for names and checksums, never for keys.
package enum SHA256 {
    /// The length of a digest, in bytes.
    package static let length = 32

    /// The 32-byte digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        // libgcrypt made ready once per process; a digest needs no secure memory, so a failure there changes nothing.
        try? Gcrypt.ensureReady()
        var digest = [UInt8](repeating: 0, count: length)
        let input = Array(bytes)
        gcry_md_hash_buffer(Int32(GCRY_MD_SHA256.rawValue), &digest, input, input.count)
        return digest
    }
}
