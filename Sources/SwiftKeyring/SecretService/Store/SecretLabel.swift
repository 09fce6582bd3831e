#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The label a person sees for an item in Seahorse or `secret-tool search`.
enum SecretLabel {
    /// `github — alice @ github.com` for credentials (the service stands in for the
    /// default record's key), `com.example.mail token` for a generic secret.
    static func label(for record: StoredRecord) -> String {
        let id = record.id
        switch id.kind {
        case .credentials:
            let name = id.key == Keyring.defaultKey ? id.service : id.key
            let host = URL(string: record.metadata.url)?.host ?? record.metadata.url
            return "\(name) — \(record.metadata.username) @ \(host)"
        case .secret:
            return "\(id.service) \(id.key)"
        }
    }
}
