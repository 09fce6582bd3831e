import Foundation

/// How `Keyring(service:configuration:)` chooses and sets up its store.
///
/// Every field has a default that reads the `SWIFT_KEYRING_*` environment, so
/// `Keyring(service:)` does the expected thing on a desktop, a server and in CI.
public struct KeyringConfiguration: Sendable {
    /// The store to use; `nil` means `SWIFT_KEYRING_BACKEND`, or `.auto` when that is unset.
    public var backend: KeyringBackend?
    /// How long any call that talks to D-Bus may wait before `KeyringError.timedOut`.
    public var timeout: Duration
    /// The environment the defaults are read from; the process's own unless a test gives another.
    public var environment: [String: String]
    /// The encrypted file store's file: `$SWIFT_KEYRING_FILE`, else the XDG default
    /// (see `EncryptedFileStore.defaultURL(environment:)`).
    public var fileURL: URL
    /// The encrypted file's passphrase or key; `nil` means the sources
    /// `FileStoreSecret.resolve(explicit:environment:)` reads, in its order.
    public var fileSecret: FileStoreSecret?
    /// How long a write to the encrypted file may wait for another process's lock
    /// before `KeyringError.timedOut`.
    public var fileLockTimeout: Duration

    /// Creates a configuration.
    /// - Parameters:
    ///   - backend: the store to use; `nil` reads `SWIFT_KEYRING_BACKEND`, then `.auto`.
    ///   - timeout: the bound on every D-Bus call, 5 seconds unless given.
    ///   - environment: where `SWIFT_KEYRING_*` variables are read from.
    ///   - fileURL: the encrypted file; `nil` means `EncryptedFileStore.defaultURL(environment:)`.
    ///   - fileSecret: the encrypted file's passphrase or key; `nil` reads the environment when the file store is chosen.
    ///   - fileLockTimeout: the bound on waiting for another writer of the encrypted file, 10 seconds unless given.
    public init(
        backend: KeyringBackend? = nil,
        timeout: Duration = .seconds(5),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileURL: URL? = nil,
        fileSecret: FileStoreSecret? = nil,
        fileLockTimeout: Duration = .seconds(10)
    ) {
        self.backend = backend
        self.timeout = timeout
        self.environment = environment
        self.fileURL = fileURL ?? EncryptedFileStore.defaultURL(environment: environment)
        self.fileSecret = fileSecret
        self.fileLockTimeout = fileLockTimeout
    }

    /// The backend asked for: the explicit one, else `SWIFT_KEYRING_BACKEND`, else `.auto`.
    /// - Throws: `KeyringError.invalidRecord` naming `SWIFT_KEYRING_BACKEND` when it holds an unknown word.
    public func requestedBackend() throws -> KeyringBackend {
        if let backend { return backend }
        guard let word = environment["SWIFT_KEYRING_BACKEND"], !word.isEmpty else { return .auto }
        guard let backend = KeyringBackend(rawValue: word) else {
            if word == "etcd" {
                // The fleet store lives in the KeyringEtcd product, which this module must not load.
                throw KeyringError.invalidRecord(
                    field: "SWIFT_KEYRING_BACKEND",
                    reason: "etcd is opened with KeyringEtcd's EtcdStore and Keyring(service:store:), not by Keyring itself")
            }
            let words = KeyringBackend.allCases.map(\.rawValue).joined(separator: ", ")
            throw KeyringError.invalidRecord(field: "SWIFT_KEYRING_BACKEND", reason: "must be one of \(words), not \"\(word)\"")
        }
        return backend
    }
}
