/// Which store a ``Keyring`` uses.
///
/// The raw values are the words of `SWIFT_KEYRING_BACKEND` and the CLI's `--backend`.
public enum KeyringBackend: String, Sendable, Hashable, CaseIterable, Codable {
    /// The Secret Service when a session bus and `org.freedesktop.secrets` answer, otherwise the encrypted file.
    case auto
    /// The desktop's Secret Service (gnome-keyring, KeePassXC, …) through libsecret.
    case secretService = "secret-service"
    /// The libgcrypt-encrypted file.
    case file
    /// Records in memory, gone when the process ends.
    case memory
}

/// The store a ``Keyring`` chose, and why: logged at start and shown by `swift-keyring doctor`.
public struct StoreSelection: Sendable, Hashable {
    /// The store in use (never `.auto`).
    public var backend: KeyringBackend
    /// One sentence on why this store was chosen.
    public var reason: String

    /// Creates a selection record.
    public init(backend: KeyringBackend, reason: String) {
        self.backend = backend
        self.reason = reason
    }
}
