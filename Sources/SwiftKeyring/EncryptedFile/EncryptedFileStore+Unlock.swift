package import KeyringCrypto
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Unlocking once per login: the file's derived key kept in the session's kernel keyring.
///
/// After `unlock(for:)`, every process of the login session that opens the same file (the
/// tool, the git helper, any app using the library) finds the key by the file's identity
/// and skips the passphrase and Argon2id, until the timeout or `lock()`. The key kept is
/// the master key Argon2id made, never the passphrase, and only the session's own processes
/// (the keyring's possessors) can find or read it. A store opened with a raw key needs no
/// unlocking: nothing is derived.
///
/// ```swift
/// let store = try EncryptedFileStore(url: EncryptedFileStore.defaultURL(), secret: .passphrase(typed))
/// let until = try store.unlock(for: .seconds(8 * 3600))
/// // … later, any process of the session:
/// let keyring = try Keyring(service: "com.example.mail", configuration: KeyringConfiguration(store: .file))
/// ```
extension EncryptedFileStore {
    /// How long `unlock(for:)` keeps the key when not told: one hour.
    public static let defaultUnlockDuration: Duration = .seconds(3600)

    /// Keeps this file's key in the login session's kernel keyring for `duration`, so the
    /// session's other processes open the file without its passphrase; replaces an earlier unlock's.
    /// - Parameter duration: from 1 second to 30 days; one hour when left out.
    /// - Returns: when the kernel forgets the key.
    /// - Throws: `.invalidConfiguration` for a duration out of range or a file opened with a raw key;
    ///   `.backend` (domain `kernel keyring`) when the kernel refuses (a container's seccomp profile),
    ///   naming the fallback, or the user's key quota is full.
    @discardableResult
    public func unlock(for duration: Duration = defaultUnlockDuration) throws -> Date {
        try KeyringError.placing(in: .keyringFile) {
            let (header, master) = try KeyringError.translatingCrypto {
                try state.withLock { state in
                    try state.refresh(paths)
                    return (state.header, state.master)
                }
            }
            guard header.keySource == .argon2id else {
                throw KeyringError.invalidConfiguration(
                    setting: "unlock",
                    reason: "\(paths.file) opens with a raw key, which needs no key derivation; there is nothing to unlock")
            }
            return try UnlockedKeyCache(header).keep(master, duration: duration)
        }
    }

    /// Fails as `unlock(for:)` would where the kernel refuses the key calls (a container's
    /// seccomp profile), before a passphrase is asked for or a key derived: a person in a
    /// container learns at once that unlocking cannot work there.
    /// - Throws: `.backend` (domain `kernel keyring`), naming the fallback.
    package static func requireUnlockPossible() throws {
        try KeyringError.placing(in: .keyringFile) { try UnlockedKeyCache.requireReachable() }
    }

    /// Drops the key `unlock(for:)` kept for this file; `false` when none was kept.
    @discardableResult
    public func lock() throws -> Bool {
        let header = try KeyringError.translatingCrypto {
            try state.withLock { state in
                try state.refresh(paths)
                return state.header
            }
        }
        return UnlockedKeyCache(header).drop()
    }

    /// Drops the key kept for the file at `url`, without opening it (no passphrase needed);
    /// `false` when none was kept or there is no file.
    /// - Throws: `.damaged` when the file's header cannot be read, `.insecurePermissions` as opening does.
    @discardableResult
    public static func lock(url: URL) throws -> Bool {
        guard let header = try header(at: PathName.path(of: url)) else { return false }
        return UnlockedKeyCache(header).drop()
    }

    /// When the key kept for the file at `url` expires; `nil` when none is kept (or there is no file).
    /// The key is not checked against the file here; opening the file does that.
    public static func unlockedUntil(url: URL) throws -> Date? {
        guard let header = try header(at: PathName.path(of: url)) else { return nil }
        return cachedKey(for: header)?.expires
    }

    /// Opens the existing file at `url` with a passphrase typed into secure memory (`swift-keyring
    /// unlock` reads it so), which is never copied into a `String` when it is ASCII.
    /// - Throws: `.invalidConfiguration` when it is empty or not UTF-8, and what `init(url:secret:)` throws.
    package convenience init(url: URL, typedPassphrase: SecureBytes, lockTimeout: Duration) throws {
        let passphrase = try FileStoreSecret.typedPassphrase(typedPassphrase)
        do {
            try self.init(opening: url, .passphrase(passphrase), false, lockTimeout, .recommended)
        } catch let error as KeyringError {
            throw error.placed(in: .keyringFile)
        }
    }

    /// Opens the file at `url` with the key kept for it, or returns `nil`: no file, no key kept,
    /// or a key that does not open the file, which is then dropped (nothing is written with it).
    static func openingUnlocked(url: URL, lockTimeout: Duration, logger: Logger) throws -> EncryptedFileStore? {
        let path = PathName.path(of: url)
        guard let header = try? header(at: path), let entry = cachedKey(for: header) else { return nil }
        do {
            let store = try EncryptedFileStore(
                opening: url, .unlocked(entry.key, identity: header.identity), false, lockTimeout, .recommended)
            logger.debug("encrypted file opened with the key unlocked in the session keyring", metadata: ["path": "\(path)"])
            return store
        } catch KeyringError.wrongPassphrase {
            UnlockedKeyCache(header).drop()
            logger.warning(
                "the key kept in the session keyring does not open the file; dropped it", metadata: ["path": "\(path)"])
            return nil
        }
    }

    /// The key kept for the file with `header`; only a passphrase's file has one (a raw key derives nothing).
    static func cachedKey(for header: KeyedHeader) -> UnlockedKeyCache.Entry? {
        header.keySource == .argon2id ? UnlockedKeyCache(header).find() : nil
    }

    /// The header of the file at `path`, checked as opening checks it; `nil` when there is no file.
    /// Only the header's bytes are read: every open of the file asks this first, and the store
    /// that opens it next reads the whole file anyway.
    private static func header(at path: String) throws -> KeyedHeader? {
        try KeyringError.placing(in: .keyringFile) {
            try KeyringError.translatingCrypto {
                guard let (descriptor, info) = try POSIX.openRegularFileIfPresent(path) else { return nil }
                let pinned = PinnedFile(descriptor)
                try FilePermissions.require(path, FilePermissions.fileProblem(info))
                var bytes = [UInt8](repeating: 0, count: KeyedHeader.length)
                let count = try bytes.withUnsafeMutableBytes { try POSIX.read(pinned.descriptor, into: $0, path: path) }
                return try KeyedHeader.decode(Array(bytes[..<count]))
            }
        }
    }
}
