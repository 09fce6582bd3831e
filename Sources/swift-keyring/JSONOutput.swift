import Foundation
import Keyring

/// The JSON shapes scripts read; field names are part of the tool's interface.
struct RecordJSON: Encodable {
    var key: String
    var username: String
    var password: String
    var url: String
    var sync: Bool
    var backgroundAccess: Bool

    init(key: String, credentials: Credentials) {
        self.key = key
        username = credentials.username
        password = credentials.password
        url = credentials.url.absoluteString
        sync = credentials.syncEnabled
        backgroundAccess = credentials.backgroundAccess
    }
}

/// A listed record: everything but the password.
struct SummaryJSON: Encodable {
    var key: String
    var username: String
    var url: String
    var sync: Bool
    var backgroundAccess: Bool

    init(_ summary: CredentialsSummary) {
        key = summary.key
        username = summary.username
        url = summary.url.absoluteString
        sync = summary.syncEnabled
        backgroundAccess = summary.backgroundAccess
    }
}

enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
