import Foundation
import KeyringSession

/// An app's properties, one of each kind: secure or plain, persisted or not.
enum TestProperty: String, SessionProperty {
    /// Secure, forgotten at logout, required.
    case token
    /// Plain, forgotten at logout, required.
    case userID
    /// Secure, kept at logout.
    case deviceKey
    /// Plain, kept at logout.
    case email
    /// Plain, kept at logout.
    case hasSeenOnboarding
    /// Plain, forgotten at logout.
    case draft
    /// Secure, forgotten at logout.
    case refreshToken

    var isSecure: Bool { [.token, .deviceKey, .refreshToken].contains(self) }
    var isPersisted: Bool { [.deviceKey, .email, .hasSeenOnboarding].contains(self) }

    static let required: [TestProperty] = [.token, .userID]
}

/// A `Codable` value of the app's own.
struct Preferences: Codable, Equatable {
    var theme: String
    var fontSize: Int
    var tags: [String]
}

/// A value whose encoding always fails, for "a failed save keeps the old value".
struct Unencodable: Codable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refuses to be encoded"))
    }
}
