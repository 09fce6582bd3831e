#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `Keyring(service:configuration:)` chooses and sets up its store.
///
/// Every field has a default that reads the `SWIFT_KEYRING_*` environment, so
/// `Keyring(service:)` does the expected thing on a desktop, a server and in CI.
public struct KeyringConfiguration: Sendable {
    /// The store to use; `nil` means `SWIFT_KEYRING_BACKEND`, or `.auto` when that is unset.
    public var store: StoreChoice?

    /// The old name of `store`.
    @available(*, deprecated, renamed: "store")
    public var backend: StoreChoice? {
        get { store }
        set { store = newValue }
    }
    /// How long any call that talks to D-Bus may wait before ``KeyringError/timedOut(operation:seconds:)``.
    public var timeout: Duration
    /// How long an unlock prompt of a locked Secret Service may wait for the person;
    /// `nil` means `SWIFT_KEYRING_PROMPT_TIMEOUT` (seconds), else 120 seconds.
    public var promptTimeout: Duration?
    /// The environment the defaults are read from; the process's own unless a test gives another.
    public var environment: [String: String]
    /// The encrypted file store's file: `$SWIFT_KEYRING_FILE`, else the XDG default
    /// (see `EncryptedFileStore.defaultURL(environment:)`).
    public var fileURL: URL
    /// The encrypted file's passphrase or key; `nil` means the sources
    /// `FileStoreSecret.resolve(explicit:environment:)` reads, in its order.
    public var fileSecret: FileStoreSecret?
    /// How long a write to the encrypted file may wait for another process's lock
    /// before ``KeyringError/timedOut(operation:seconds:)``.
    public var fileLockTimeout: Duration
    /// libsecret's keyring file, for ``StoreChoice/libsecretFile``; `nil` means
    /// `LibsecretFileStore.defaultURL(environment:)`. Its password comes from `fileSecret`'s sources.
    public var libsecretFileURL: URL?
    /// Which secret keys libsecret's file; `nil` means `SWIFT_KEYRING_LIBSECRET_KEY`, else `.auto`
    /// (the Secret portal when one answers, else `fileSecret`'s sources). See ``LibsecretKeyChoice``.
    public var libsecretKey: LibsecretKeyChoice?

    /// Creates a configuration.
    /// - Parameters:
    ///   - store: the store to use; `nil` reads `SWIFT_KEYRING_BACKEND`, then `.auto`.
    ///   - timeout: the bound on every D-Bus call, 5 seconds unless given.
    ///   - promptTimeout: the bound on waiting for a person at an unlock prompt; `nil` reads
    ///     `SWIFT_KEYRING_PROMPT_TIMEOUT`, then 120 seconds.
    ///   - environment: where `SWIFT_KEYRING_*` variables are read from.
    ///   - fileURL: the encrypted file; `nil` means `EncryptedFileStore.defaultURL(environment:)`.
    ///   - fileSecret: the encrypted file's passphrase or key; `nil` reads the environment when the file store is chosen.
    ///   - fileLockTimeout: the bound on waiting for another writer of the encrypted file, 10 seconds unless given.
    public init(
        store: StoreChoice? = nil,
        timeout: Duration = .seconds(5),
        promptTimeout: Duration? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileURL: URL? = nil,
        fileSecret: FileStoreSecret? = nil,
        fileLockTimeout: Duration = .seconds(10)
    ) {
        self.store = store
        self.timeout = timeout
        self.promptTimeout = promptTimeout
        self.environment = environment
        self.fileURL = fileURL ?? EncryptedFileStore.defaultURL(environment: environment)
        self.fileSecret = fileSecret
        self.fileLockTimeout = fileLockTimeout
    }

    /// The store asked for: the explicit one, else `SWIFT_KEYRING_BACKEND`, else `.auto`.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `SWIFT_KEYRING_BACKEND` when it holds an unknown word.
    public func requestedStore() throws -> StoreChoice {
        if let store { return store }
        guard let word = environment["SWIFT_KEYRING_BACKEND"], !word.isEmpty else { return .auto }
        guard let choice = StoreChoice(rawValue: word) else {
            if word == "etcd" {
                // The fleet store lives in the KeyringEtcd product, which this module must not load.
                throw KeyringError.invalidConfiguration(
                    setting: "SWIFT_KEYRING_BACKEND",
                    reason: "etcd is opened with KeyringEtcd's EtcdStore and Keyring(service:store:), not by Keyring itself")
            }
            let words = StoreChoice.allCases.map(\.rawValue).joined(separator: ", ")
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_BACKEND", reason: "must be one of \(words), not \"\(word)\"")
        }
        return choice
    }

    /// The old name of `requestedStore()`.
    @available(*, deprecated, renamed: "requestedStore()")
    public func requestedBackend() throws -> StoreChoice {
        try requestedStore()
    }

    /// The unlock prompt bound asked for: the explicit one, else `SWIFT_KEYRING_PROMPT_TIMEOUT`
    /// (a number of seconds, such as `120` or `2.5`), else `SecretServiceStore.defaultPromptTimeout`.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `promptTimeout` or `SWIFT_KEYRING_PROMPT_TIMEOUT`
    ///   when it is not a number of seconds greater than zero.
    public func requestedPromptTimeout() throws -> Duration {
        if let promptTimeout {
            guard promptTimeout > .zero else {
                throw KeyringError.invalidConfiguration(setting: "promptTimeout", reason: "must be longer than zero")
            }
            return promptTimeout
        }
        guard let text = environment["SWIFT_KEYRING_PROMPT_TIMEOUT"], !text.isEmpty else {
            return SecretServiceStore.defaultPromptTimeout
        }
        guard let seconds = Self.seconds(text) else {
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_PROMPT_TIMEOUT",
                reason: "must be a number of seconds greater than zero, such as 120, not \"\(text)\""
            )
        }
        return seconds
    }

    /// `text` as a duration, when it is a plain decimal number of seconds above zero
    /// and at most a day (a longer wait is a mistake, not a person typing).
    static func seconds(_ text: String) -> Duration? {
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text), value.isFinite, value > 0, value <= 86_400
        else { return nil }
        return .milliseconds(Int64((value * 1000).rounded(.up)))
    }
}
