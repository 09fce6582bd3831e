import KeyringCrypto

/// How a ``LibsecretFileState`` makes the key for a salt and iteration count it has not read
/// before: the first time it reads the file, and each time another writer gives it a new salt.
enum LibsecretFileKeying: Sendable {
    /// PBKDF2 over this password.
    case password(SecureBytes)
    /// The key `swift-keyring unlock` kept in the session's kernel keyring for the file's
    /// identity, when one is kept and it opens the file; else the password `fallback` finds
    /// (the usual sources: their error when none is set), which is then kept as ``password(_:)``.
    case unlockedOrElse(fallback: @Sendable () throws -> SecureBytes)
}
