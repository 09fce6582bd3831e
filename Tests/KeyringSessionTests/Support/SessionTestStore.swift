import Foundation
import Keyring
import Testing

/// The stores the session tests run against. Each case makes a fresh, real
/// store; a store that cannot be made fails the test (never skips it).
enum SessionTestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory

    var testDescription: String { rawValue }

    /// A keyring on a fresh store with a service name no other test uses.
    func makeKeyring(service: String = SessionTestStore.uniqueService()) throws -> Keyring {
        switch self {
        case .memory:
            return try Keyring(service: service, store: MemoryStore())
        }
    }

    /// A service name unique to one test, so tests sharing a daemon never see each other's records.
    static func uniqueService(_ prefix: String = "session-test") -> String {
        "\(prefix).\(UUID().uuidString.lowercased())"
    }
}
