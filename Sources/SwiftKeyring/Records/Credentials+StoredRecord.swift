#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Credentials {
    /// The record a store keeps for these credentials under `id`.
    func storedRecord(id: RecordID) -> StoredRecord {
        StoredRecord(
            id: id,
            metadata: RecordMetadata(
                username: username,
                url: url.absoluteString,
                syncEnabled: syncEnabled,
                backgroundAccess: backgroundAccess
            ),
            secret: Array(password.utf8)
        )
    }

    /// A stored password's bytes as text; bytes that are not UTF-8 (written by another
    /// program) are refused rather than repaired, so a password never changes silently.
    static func password(from secret: [UInt8], of id: RecordID) throws -> String {
        guard let password = ExactUTF8.string(secret[...]) else {
            throw KeyringError.invalidRecord(field: "password", reason: "the stored bytes of \(id) are not UTF-8 text")
        }
        return password
    }

    /// Rebuilds credentials from a stored record, refusing one that no longer
    /// reads as valid credentials (for example an item another program wrote).
    ///
    /// The username is returned exactly as stored, control characters included.
    init(record: StoredRecord) throws {
        let password = try Self.password(from: record.secret, of: record.id)
        guard let url = URL(string: record.metadata.url) else {
            throw KeyringError.invalidRecord(field: "url", reason: "the stored URL of \(record.id) does not parse")
        }
        self.init(
            unvalidatedUsername: record.metadata.username,
            password: password,
            url: url,
            syncEnabled: record.metadata.syncEnabled,
            backgroundAccess: record.metadata.backgroundAccess
        )
        try RecordValidation.checkStoredCredentials(self)
    }
}

extension CredentialsSummary {
    /// The summary of a stored credentials record found in `place`; `nil` when its URL does not parse.
    init?(_ summary: RecordSummary, place: RecordPlace = .local) {
        guard let url = URL(string: summary.metadata.url) else { return nil }
        self.init(
            key: summary.id.key,
            username: summary.metadata.username,
            url: url,
            syncEnabled: summary.metadata.syncEnabled,
            backgroundAccess: summary.metadata.backgroundAccess,
            place: place
        )
    }
}
