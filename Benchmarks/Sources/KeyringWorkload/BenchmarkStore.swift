import Foundation
import SwiftKeyring

/// The stores a benchmark can run against, by the names `SWIFT_KEYRING_BACKEND` uses.
public enum BenchmarkStore: String, Sendable, CaseIterable {
    /// The in-memory store: the cost of the `Keyring` layer alone.
    case memory
    /// The Secret Service through libsecret; needs a running daemon.
    case secretService = "secret-service"
    /// An encrypted file in the settings' folder, opened with a raw key from a key
    /// file beside it, so no KDF runs (the unlock benchmarks time the KDF).
    case file

    /// Opens a store of this kind; the file store keeps what earlier processes wrote.
    /// - Parameters:
    ///   - fileName: the file store's file in the settings' folder, without `.keyring`.
    ///   - settings: where the file store's folder is.
    /// - Throws: what the store's initialiser throws, for example `.serviceUnavailable` without a daemon.
    public func makeStore(fileName: String = "bench", settings: BenchmarkSettings = .current) throws -> any CredentialStore {
        switch self {
        case .memory:
            return MemoryStore()
        case .secretService:
            // The 5 s default bounds a whole call, and gnome-keyring deletes about
            // 50 items a second (BENCHMARKS.md), so removeAll of 1,000 records needs more.
            return try SecretServiceStore(timeout: settings.secretServiceTimeout)
        case .file:
            let fixture = try FileStoreFixture(folder: settings.folder)
            return try EncryptedFileStore(url: fixture.url(fileName), secret: .keyFile(fixture.keyFile))
        }
    }
}
