import Foundation
import Keyring
import Testing

/// The stores the session tests run against. Each case makes a fresh, real
/// store; a store that cannot be made fails the test (never skips it).
enum SessionTestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    /// An encrypted file in a new private temporary folder, opened with a random raw key.
    case encryptedFile
    /// The private gnome-keyring of `Scripts/with-secret-service.sh`.
    case secretService

    var testDescription: String { rawValue }

    /// A keyring on a fresh store with a service name no other test uses.
    func makeKeyring(service: String = SessionTestStore.uniqueService()) throws -> Keyring {
        switch self {
        case .memory:
            return try Keyring(service: service, store: MemoryStore())
        case .encryptedFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keyring-session-\(UUID().uuidString)")
            let key = Data((0..<FileStoreSecret.keyLength).map { _ in UInt8.random(in: .min ... .max) })
            let store = try EncryptedFileStore(url: folder.appendingPathComponent("keyring.skr"), secret: .key(key))
            return try Keyring(service: service, store: store)
        case .secretService:
            return try Keyring(service: service, store: SecretServiceStore())
        }
    }

    /// A service name unique to one test, so tests sharing a daemon never see each other's records.
    static func uniqueService(_ prefix: String = "session-test") -> String {
        "\(prefix).\(UUID().uuidString.lowercased())"
    }
}
