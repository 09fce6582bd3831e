#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One credentials record as `Keyring.list` shows it: everything but the password.
public struct CredentialsSummary: Sendable, Hashable {
    /// The record's key (`Keyring.defaultKey` for the default record).
    public var key: String
    /// The account name.
    public var username: String
    /// The account's URL.
    public var url: URL
    /// The stored sync flag.
    public var syncEnabled: Bool
    /// The stored background-access flag.
    public var backgroundAccess: Bool
    /// Where the record lives: ``RecordPlace/shared`` only on a keyring with a shared store
    /// (``Keyring/syncStore``), for a record with the sync flag.
    public var place: RecordPlace

    /// Whether this is the default record.
    public var isDefault: Bool { key == Keyring.defaultKey }

    /// Creates a summary.
    public init(
        key: String, username: String, url: URL, syncEnabled: Bool, backgroundAccess: Bool, place: RecordPlace = .local
    ) {
        self.key = key
        self.username = username
        self.url = url
        self.syncEnabled = syncEnabled
        self.backgroundAccess = backgroundAccess
        self.place = place
    }
}
