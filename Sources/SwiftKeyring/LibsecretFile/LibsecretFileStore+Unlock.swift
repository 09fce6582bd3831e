package import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Unlocking once per login: libsecret's file's key (PBKDF2's output) kept in the session's kernel keyring.
///
/// After `unlock(for:)`, every process of the login session that opens the same file with a
/// passphrase as its key source (the tool, the git helper, any app using the library) finds
/// the key by the file's identity (its salt and iteration count, hashed; not its path) and
/// skips the password and PBKDF2, until the timeout or `lock()`. The key kept is the file's
/// key, never the password, and only the session's own processes (the keyring's possessors)
/// can find or read it. A store keyed by the Secret portal has nothing to unlock: the portal
/// gives the password without anybody typing it.
///
/// ```swift
/// let store = try LibsecretFileStore(url: LibsecretFileStore.defaultURL(), key: .secret(.passphrase(typed)))
/// let until = try store.unlock(for: .seconds(8 * 3600))
/// // … later, any process of the session, with no passphrase set:
/// let keyring = try Keyring(service: "com.example.mail", configuration: KeyringConfiguration(store: .libsecretFile))
/// ```
extension LibsecretFileStore {
    /// How long `unlock(for:)` keeps the key when not told: one hour.
    public static let defaultUnlockDuration: Duration = .seconds(3600)

    /// Keeps this file's key in the login session's kernel keyring for `duration`, so the
    /// session's other processes open the file without its password; replaces an earlier unlock's.
    ///
    /// The file must hold at least one item: libsecret's format has no key check, so a password
    /// is known right only when it opens the items, and a key kept unchecked could seal every
    /// later record under a mistyped password.
    /// - Parameter duration: from 1 second to 30 days; one hour when left out.
    /// - Returns: when the kernel forgets the key.
    /// - Throws: `.invalidConfiguration` for a duration out of range, a store keyed by the Secret
    ///   portal, or a file with no item yet (or none on disk); `.backend` (domain `kernel keyring`)
    ///   when the kernel refuses (a container's seccomp profile), naming the fallback, or the user's
    ///   key quota is full; what reading the file throws.
    @discardableResult
    public func unlock(for duration: Duration = defaultUnlockDuration) throws -> Date {
        try KeyringError.placing(in: .libsecretFile) {
            guard !keyedByPortal else {
                throw KeyringError.invalidConfiguration(
                    setting: "unlock",
                    reason: "\(paths.file) is keyed by the Secret portal, which gives its key; there is nothing to unlock")
            }
            let (file, key, stored) = try KeyringError.translatingCrypto {
                try state.withLock { state in
                    try state.refresh(paths)
                    return (state.file, state.key, state.identity != nil)
                }
            }
            guard stored, !file.items.isEmpty else {
                throw KeyringError.invalidConfiguration(
                    setting: "unlock",
                    reason: "\(paths.file) holds no item yet, so its password cannot be checked; "
                        + "store a record with the password first")
            }
            return try file.unlockedKeyCache.keep(key, duration: duration)
        }
    }

    /// Fails as `unlock(for:)` would where the kernel refuses the key calls (a container's
    /// seccomp profile), before a password is asked for or a key derived.
    /// - Throws: `.backend` (domain `kernel keyring`), naming the fallback.
    package static func requireUnlockPossible() throws {
        try KeyringError.placing(in: .libsecretFile) { try UnlockedKeyCache.requireReachable() }
    }

    /// Drops the key `unlock(for:)` kept for this file; `false` when none was kept.
    /// - Throws: what reading the file throws.
    @discardableResult
    public func lock() throws -> Bool {
        let file = try KeyringError.placing(in: .libsecretFile) {
            try KeyringError.translatingCrypto {
                try state.withLock { state in
                    try state.refresh(paths)
                    return state.file
                }
            }
        }
        return file.unlockedKeyCache.drop()
    }

    /// Drops the key kept for the file at `url`, without opening it (no password needed: the
    /// salt and iteration count that name it are plain); `false` when none was kept or there is no file.
    /// - Throws: `.damaged` when the file is not libsecret's format, `.insecurePermissions` as opening does.
    @discardableResult
    public static func lock(url: URL) throws -> Bool {
        try plainFile(at: url)?.unlockedKeyCache.drop() ?? false
    }

    /// When the key kept for the file at `url` expires; `nil` when none is kept (or there is no file).
    /// The key is not checked against the file here; opening the file does that.
    /// - Throws: `.damaged` when the file is not libsecret's format, `.insecurePermissions` as opening does.
    public static func unlockedUntil(url: URL) throws -> Date? {
        try plainFile(at: url)?.unlockedKeyCache.find()?.expires
    }

    /// Opens the existing file at `url` with a passphrase typed into secure memory (`swift-keyring
    /// unlock` reads it so), normalised as the other sources' passphrases are.
    /// - Throws: `.invalidConfiguration` when it is empty or not UTF-8, and what `init(url:key:)` throws.
    package convenience init(url: URL, typedPassphrase: SecureBytes, lockTimeout: Duration) throws {
        let password = try KeyringError.placing(in: .libsecretFile) { try FileStoreSecret.typedPassphrase(typedPassphrase) }
        try self.init(url: url, password: password, createIfMissing: false, lockTimeout: lockTimeout)
    }

    /// The file at `url`, its items still sealed; `nil` when there is none.
    private static func plainFile(at url: URL) throws -> LibsecretKeyringFile? {
        try KeyringError.placing(in: .libsecretFile) {
            try KeyringError.translatingCrypto { try LibsecretFileState.plainFile(StorePaths(url)) }
        }
    }
}
