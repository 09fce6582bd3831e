import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A record as the tool prints it in JSON; the field names are part of the tool's interface.
///
/// `list` leaves the password out (`nil` is not encoded at all), `get` puts it in.
struct RecordJSON: Encodable {
    var key: String
    var username: String
    var password: String?
    var url: String
    var sync: Bool
    var backgroundAccess: Bool
    /// Where a listed record lives, `local` or `shared`; absent from `get --json`.
    var place: String?

    /// The whole record, password included, for `get --json`.
    init(key: String, credentials: Credentials) {
        self.key = key
        username = credentials.username
        password = credentials.password
        url = credentials.url.absoluteString
        sync = credentials.syncEnabled
        backgroundAccess = credentials.backgroundAccess
    }

    /// A listed record: everything but the password.
    init(_ summary: CredentialsSummary) {
        key = summary.key
        username = summary.username
        password = nil
        url = summary.url.absoluteString
        sync = summary.syncEnabled
        backgroundAccess = summary.backgroundAccess
        place = summary.place.rawValue
    }
}

enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
