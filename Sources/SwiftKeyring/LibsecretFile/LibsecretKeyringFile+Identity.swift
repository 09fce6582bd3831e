import KeyringCrypto

extension LibsecretKeyringFile {
    /// What names this file apart from every other, whatever its path: the first 16 bytes of
    /// SHA-256 over the PBKDF2 iteration count (4 bytes, big-endian) and the salt, in hex.
    /// The two are all the key depends on besides the password, and the salt is random, so a
    /// moved or copied file keeps its identity, another file never has it, and a file made
    /// again (libsecret makes a new salt) gets a new one.
    var identity: String {
        let count = (0..<4).map { UInt8(truncatingIfNeeded: iterations >> (24 - 8 * UInt32($0))) }
        return SHA256.digest(count + salt).prefix(16).lowercaseHex
    }

    /// Where `swift-keyring unlock` keeps this file's key (PBKDF2's output, never the password):
    /// `swift-keyring:libsecret-file:` and the identity, in the session's kernel keyring.
    var unlockedKeyCache: UnlockedKeyCache {
        UnlockedKeyCache(kind: "libsecret-file", identity: identity, keyLength: LibsecretItemSealing.keyLength)
    }
}
