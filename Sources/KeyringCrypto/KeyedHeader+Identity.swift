extension KeyedHeader {
    /// What names this store apart from every other, whatever its path: the first 16 bytes
    /// of SHA-256 over magic, version, KDF, its cost and the salt, in hex. The salt is random
    /// and new at every change of passphrase, so a moved or copied file keeps its identity,
    /// another file never has it, and a re-keyed file gets a new one.
    package var identity: String {
        SHA256.digest(checkedBytes).prefix(16).lowercaseHex
    }
}
