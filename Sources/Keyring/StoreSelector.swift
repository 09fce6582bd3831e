import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a ``KeyringConfiguration`` into a store, and says why.
///
/// Deciding and opening are separate so `swift-keyring doctor` can show the
/// decision without needing the file's passphrase.
enum StoreSelector {
    /// The bound on asking the bus whether a Secret Service is there: short,
    /// because on a server with no bus the answer decides every start.
    static let probeTimeout: Duration = .seconds(1)

    /// Which store the configuration selects, and why; nothing is opened.
    static func decide(_ configuration: KeyringConfiguration) throws -> StoreSelection {
        let requested = try configuration.requestedBackend()
        // Checked whichever store is chosen, so a mistyped value is seen at once, not on the first locked day.
        _ = try configuration.requestedPromptTimeout()
        let forced = configuration.backend != nil ? "asked for by the caller" : "forced by SWIFT_KEYRING_BACKEND"
        guard requested == .auto else {
            return StoreSelection(backend: requested, reason: forced)
        }
        let probe = SecretServiceStore.probe(
            timeout: min(configuration.timeout, probeTimeout),
            environment: configuration.environment
        )
        switch probe {
        case .available:
            return StoreSelection(backend: .secretService, reason: "a session bus answers and org.freedesktop.secrets is there")
        case .noBus, .noDaemon:
            // A locked Secret Service still probes as available: locking is an error, never a reason to fall back.
            return StoreSelection(backend: .file, reason: "\(probe), so the encrypted file at \(configuration.fileURL.path)")
        }
    }

    /// Opens the store a decision names.
    static func open(_ selection: StoreSelection, _ configuration: KeyringConfiguration, logger: Logger) throws
        -> any CredentialStore
    {
        switch selection.backend {
        case .memory:
            return MemoryStore()
        case .secretService, .auto:
            return try SecretServiceStore(
                timeout: configuration.timeout,
                promptTimeout: configuration.requestedPromptTimeout(),
                environment: configuration.environment,
                logger: logger
            )
        case .file:
            let secret = try KeyringError.placing(in: .keyringFile) {
                try FileStoreSecret.resolve(explicit: configuration.fileSecret, environment: configuration.environment)
            }
            return try EncryptedFileStore(url: configuration.fileURL, secret: secret, lockTimeout: configuration.fileLockTimeout)
        }
    }

    static func select(_ configuration: KeyringConfiguration, logger: Logger) throws -> (any CredentialStore, StoreSelection) {
        let selection = try decide(configuration)
        logger.debug(
            "keyring store selected", metadata: ["store": "\(selection.backend.rawValue)", "reason": "\(selection.reason)"])
        return (try open(selection, configuration, logger: logger), selection)
    }
}
