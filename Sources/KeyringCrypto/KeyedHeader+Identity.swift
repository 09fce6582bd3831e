internal import CGcrypt

extension KeyedHeader {
    /// What names this store apart from every other, whatever its path: the first 16 bytes
    /// of SHA-256 over magic, version, KDF, its cost and the salt, in hex. The salt is random
    /// and new at every change of passphrase, so a moved or copied file keeps its identity,
    /// another file never has it, and a re-keyed file gets a new one.
    package var identity: String {
        try? Gcrypt.ensureReady()
        var digest = [UInt8](repeating: 0, count: 32)
        let input = checkedBytes
        gcry_md_hash_buffer(Int32(GCRY_MD_SHA256.rawValue), &digest, input, input.count)
        return digest.prefix(16).lowercaseHex
    }
}
