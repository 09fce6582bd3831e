import Foundation
import Keyring

/// The stores a benchmark can run against, by the names `SWIFT_KEYRING_BACKEND` uses.
public enum BenchmarkStore: String, Sendable, CaseIterable {
    /// The in-memory store: the cost of the `Keyring` layer alone.
    case memory
    /// The Secret Service through libsecret; needs a running daemon.
    case secretService = "secret-service"

    /// Opens a fresh store of this kind.
    /// - Throws: what the store's initialiser throws, for example `.serviceUnavailable` without a daemon.
    public func makeStore(settings: BenchmarkSettings = .current) throws -> any CredentialStore {
        switch self {
        case .memory:
            return MemoryStore()
        case .secretService:
            return try SecretServiceStore()
        }
    }
}
