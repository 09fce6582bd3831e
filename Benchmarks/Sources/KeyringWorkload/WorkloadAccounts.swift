import Foundation
import SwiftKeyring

/// The records every benchmark and every tool in the comparison stores: record
/// `index` has the key `account-<index>`, the username `user<index>`, the URL
/// `https://accounts.example.com/user<index>` and a password of about 25 bytes.
///
/// `Compare/libsecret-bench.c` and `Compare/python-keyring-bench.py` spell the
/// same values, so all tools move the same bytes.
public enum WorkloadAccounts {
    /// The key of record `index`.
    public static func key(_ index: Int) -> String { "account-\(index)" }

    /// The password of record `index`: a fixture, not a secret, but still never printed.
    public static func password(_ index: Int) -> String { "benchmark-password-\(index)" }

    /// The credentials of record `index`.
    public static func credentials(_ index: Int) -> Credentials {
        // The URL and username are valid by construction; a failure here is a bug in this file.
        try! Credentials(
            username: "user\(index)",
            password: password(index),
            url: URL(string: "https://accounts.example.com/user\(index)")!
        )
    }

    /// Record `index` as a store keeps it, for calls below `Keyring` such as a bulk import.
    public static func record(_ index: Int, service: String) -> StoredRecord {
        let credentials = credentials(index)
        return StoredRecord(
            id: RecordID(service: service, key: key(index), kind: .credentials),
            metadata: RecordMetadata(
                username: credentials.username,
                url: credentials.url.absoluteString,
                syncEnabled: credentials.syncEnabled,
                backgroundAccess: credentials.backgroundAccess
            ),
            secret: Array(credentials.password.utf8)
        )
    }

    /// A service name no earlier run used, so runs sharing a daemon or a file never meet.
    public static func uniqueService(_ prefix: String) -> String {
        "\(prefix).\(UUID().uuidString.prefix(8).lowercased())"
    }
}
