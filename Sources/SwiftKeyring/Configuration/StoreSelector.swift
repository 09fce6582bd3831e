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
        try decision(configuration).selection
    }

    /// ``decide(_:)``, with the bus connection the Secret Service was found on, when the
    /// probe chose it: `select` opens the store on that connection.
    private static func decision(_ configuration: KeyringConfiguration) throws -> (
        selection: StoreSelection, bus: ProbedBus?
    ) {
        let requested = try checkedChoice(configuration)
        let forced = configuration.store != nil ? "asked for by the caller" : "forced by SWIFT_KEYRING_BACKEND"
        if requested == .libsecretFile {
            return (try libsecretFileSelection(configuration, reason: forced), nil)
        }
        if let kind = requested.kind {
            return (StoreSelection(kind: kind, reason: forced), nil)
        }
        // Inside a Flatpak or Snap, libsecret's file where libsecret would use it.
        let (sandboxed, sandboxNote) = try sandboxSelection(configuration)
        if let sandboxed { return (sandboxed, nil) }
        let note = sandboxNote.map { "; \($0)" } ?? ""
        let (probe, bus) = SecretServiceStore.probeKeepingBus(
            timeout: min(configuration.timeout, probeTimeout),
            environment: configuration.environment
        )
        switch probe {
        case .available:
            let selection = StoreSelection(
                kind: .secretService, reason: "a session bus answers and org.freedesktop.secrets is there\(note)")
            return (selection, bus)
        case .noBus, .noDaemon:
            // A locked Secret Service still probes as available: locking is an error, never a reason to fall back.
            let selection = StoreSelection(
                kind: .file, reason: "\(probe), so the encrypted file at \(configuration.fileURL.path)\(note)")
            return (selection, nil)
        }
    }

    /// The store asked for, once every setting is checked: whichever store is chosen, so a
    /// mistyped value is seen at once, not on the first locked day.
    static func checkedChoice(_ configuration: KeyringConfiguration) throws -> StoreChoice {
        let requested = try configuration.requestedStore()
        _ = try configuration.requestedPromptTimeout()
        _ = try configuration.requestedCollection()
        _ = try configuration.requestedSessionFallback()
        _ = try configuration.requestedLibsecretKey()
        _ = try configuration.requestedKernelKeyring()
        return requested
    }

    /// Opens the store a decision names; a Secret Service store on `bus` when the probe left one.
    static func open(
        _ selection: StoreSelection, _ configuration: KeyringConfiguration, logger: Logger, bus: ProbedBus? = nil
    ) throws -> any CredentialStore {
        switch selection.kind {
        case .memory:
            return MemoryStore()
        case .secretService:
            return try SecretServiceStore(
                timeout: configuration.timeout,
                promptTimeout: configuration.requestedPromptTimeout(),
                environment: configuration.environment,
                logger: logger,
                collection: configuration.requestedCollection(),
                sessionFallback: configuration.requestedSessionFallback(),
                bus: bus
            )
        case .file:
            // A key unlocked for this file in the login session comes first: no passphrase, no Argon2id.
            if let unlocked = try EncryptedFileStore.openingUnlocked(
                url: configuration.fileURL, lockTimeout: configuration.fileLockTimeout, logger: logger)
            {
                warnOfUnusedPassphrase(configuration.environment, logger: logger)
                return unlocked
            }
            let secret = try KeyringError.placing(in: .keyringFile) {
                try FileStoreSecret.resolve(explicit: configuration.fileSecret, environment: configuration.environment)
            }
            return try EncryptedFileStore(url: configuration.fileURL, secret: secret, lockTimeout: configuration.fileLockTimeout)
        case .libsecretFile:
            return try openLibsecretFile(selection, configuration)
        case .kernel:
            return try KernelKeyringStore(scope: configuration.requestedKernelKeyring())
        default:
            // `decide` names only the kinds above; a kind of another module is opened by that module.
            throw KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_BACKEND", reason: "\(selection.kind) is not a store Keyring opens itself")
        }
    }

    /// A passphrase source that is set while a kept key opened the file was neither used nor
    /// checked (checking it would cost the Argon2id the unlock saves): said, so a wrong one is not
    /// silently ignored until the key expires and every call fails at once.
    private static func warnOfUnusedPassphrase(_ environment: [String: String], logger: Logger) {
        let set = [FileStoreSecret.passphraseVariable, FileStoreSecret.passphraseFileVariable].filter {
            !(environment[$0] ?? "").isEmpty
        }
        guard let variable = set.first else { return }
        logger.warning(
            """
            the file is unlocked in this login session and its kept key opened it; \(variable) is set but was \
            neither used nor checked (run swift-keyring lock to use and check it)
            """)
    }

    /// Decides and opens.
    static func select(_ configuration: KeyringConfiguration, logger: Logger) throws -> (
        any CredentialStore, StoreSelection
    ) {
        let decided = try decision(configuration)
        var selection = decided.selection
        logger.debug(
            "keyring store selected", metadata: ["store": "\(selection.kind)", "reason": "\(selection.reason)"])
        let store = try open(selection, configuration, logger: logger, bus: decided.bus)
        // The store says what it is; the decision only said what to open.
        selection.kind = store.identity.kind
        logger.debug("keyring store opened", metadata: ["store": "\(store.identity)"])
        return (store, selection)
    }
}
