// The Argon2id cost lives in the crypto layer with its bounds; users of `Keyring`
// name it as they always have, so the struct is re-exported.
@_exported public import struct KeyringCrypto.Argon2idParameters

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
    /// The Secret Service collection to read and write, by its alias, label or object path;
    /// `nil` means `SWIFT_KEYRING_COLLECTION`, else the default collection. A named
    /// collection is a boundary: records in other collections are neither read nor removed.
    public var collection: String?
    /// Whether, with no default collection in the Secret Service and none the daemon creates,
    /// records may be written to its `session` collection, which lives in memory and is gone
    /// at logout; `nil` means `SWIFT_KEYRING_SESSION_FALLBACK` (`true` or `false`), else `false`.
    public var sessionFallback: Bool?
    /// libsecret's keyring file, for ``StoreChoice/libsecretFile``; `nil` means
    /// `LibsecretFileStore.defaultURL(environment:)`. Its password comes from `fileSecret`'s sources.
    public var libsecretFileURL: URL?
    /// Which secret keys libsecret's file; `nil` means `SWIFT_KEYRING_LIBSECRET_KEY`, else `.auto`
    /// (the Secret portal when one answers, else `fileSecret`'s sources). See ``LibsecretKeyChoice``.
    public var libsecretKey: LibsecretKeyChoice?
    /// Which of the user's kernel keyrings holds the records, for ``StoreChoice/kernel``; `nil`
    /// means `SWIFT_KEYRING_KERNEL_KEYRING` (`persistent` or `session`), else `.persistent`.
    public var kernelKeyring: KernelKeyringScope?

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
    ///   - collection: the Secret Service collection (alias, label or path); `nil` reads
    ///     `SWIFT_KEYRING_COLLECTION`, then the default collection.
    ///   - sessionFallback: whether the in-memory `session` collection may hold records when there is
    ///     no default collection; `nil` reads `SWIFT_KEYRING_SESSION_FALLBACK`, then `false`.
    public init(
        store: StoreChoice? = nil,
        timeout: Duration = .seconds(5),
        promptTimeout: Duration? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileURL: URL? = nil,
        fileSecret: FileStoreSecret? = nil,
        fileLockTimeout: Duration = .seconds(10),
        collection: String? = nil,
        sessionFallback: Bool? = nil
    ) {
        self.store = store
        self.timeout = timeout
        self.promptTimeout = promptTimeout
        self.environment = environment
        self.fileURL = fileURL ?? EncryptedFileStore.defaultURL(environment: environment)
        self.fileSecret = fileSecret
        self.fileLockTimeout = fileLockTimeout
        self.collection = collection
        self.sessionFallback = sessionFallback
    }

    /// The collection asked for: the explicit one, else `SWIFT_KEYRING_COLLECTION`; `nil` for the default collection.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `collection` when it is empty.
    public func requestedCollection() throws -> String? {
        if let collection {
            guard !collection.isEmpty else {
                throw KeyringError.invalidConfiguration(setting: "collection", reason: "must not be empty")
            }
            return collection
        }
        guard let name = environment["SWIFT_KEYRING_COLLECTION"], !name.isEmpty else { return nil }
        return name
    }

    /// Whether the session collection may hold records when there is no default collection:
    /// the explicit value, else `SWIFT_KEYRING_SESSION_FALLBACK`, else `false`.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `SWIFT_KEYRING_SESSION_FALLBACK`
    ///   when it is neither `true` nor `false`.
    public func requestedSessionFallback() throws -> Bool {
        if let sessionFallback { return sessionFallback }
        switch environment["SWIFT_KEYRING_SESSION_FALLBACK"] {
        case nil, "", "false": return false
        case "true": return true
        case let word?:
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_SESSION_FALLBACK", reason: "must be true or false, not \"\(word)\"")
        }
    }

    /// The kernel keyring asked for: the explicit one, else `SWIFT_KEYRING_KERNEL_KEYRING`, else `.persistent`.
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` naming `SWIFT_KEYRING_KERNEL_KEYRING`
    ///   when it is neither `persistent` nor `session`.
    public func requestedKernelKeyring() throws -> KernelKeyringScope {
        if let kernelKeyring { return kernelKeyring }
        guard let word = environment["SWIFT_KEYRING_KERNEL_KEYRING"], !word.isEmpty else { return .persistent }
        guard let scope = KernelKeyringScope(rawValue: word) else {
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_KERNEL_KEYRING", reason: "must be persistent or session, not \"\(word)\"")
        }
        return scope
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
