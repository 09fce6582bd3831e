import Logging

/// Turns a `KeyringConfiguration` into a store, and says why.
enum StoreSelector {
    static func select(_ configuration: KeyringConfiguration, logger: Logger) throws -> (any CredentialStore, StoreSelection) {
        let requested = try configuration.requestedBackend()
        let forced = configuration.backend != nil ? "asked for by the caller" : "forced by SWIFT_KEYRING_BACKEND"
        let choice: (any CredentialStore, StoreSelection)
        switch requested {
        case .memory:
            choice = (MemoryStore(), StoreSelection(backend: .memory, reason: forced))
        case .secretService:
            let store = try SecretServiceStore(timeout: configuration.timeout, environment: configuration.environment)
            choice = (store, StoreSelection(backend: .secretService, reason: forced))
        case .auto:
            let store = try SecretServiceStore(timeout: configuration.timeout, environment: configuration.environment)
            choice = (store, StoreSelection(backend: .secretService, reason: "the only store for now"))
        case .file:
            let secret = try FileStoreSecret.resolve(explicit: configuration.fileSecret, environment: configuration.environment)
            let store = try EncryptedFileStore(url: configuration.fileURL, secret: secret, lockTimeout: configuration.fileLockTimeout)
            choice = (store, StoreSelection(backend: .file, reason: forced))
        }
        logger.info("keyring store selected", metadata: ["store": "\(choice.1.backend.rawValue)", "reason": "\(choice.1.reason)"])
        return choice
    }
}
