/// The searchable, non-secret part of a record: what `list` shows and what the
/// Secret Service keeps as plain attributes.
public struct RecordMetadata: Sendable, Hashable, Codable {
    /// The account name; empty for generic secrets.
    public var username: String
    /// The URL as the app gave it (its absolute string); empty for generic secrets.
    public var url: String
    /// The record's sync flag, stored as given (see `Credentials.syncEnabled`).
    public var syncEnabled: Bool
    /// The record's background-access flag, stored as given (see `Credentials.backgroundAccess`).
    public var backgroundAccess: Bool

    /// Creates metadata; generic secrets use the defaults.
    public init(username: String = "", url: String = "", syncEnabled: Bool = false, backgroundAccess: Bool = false) {
        self.username = username
        self.url = url
        self.syncEnabled = syncEnabled
        self.backgroundAccess = backgroundAccess
    }
}

/// One record as a store keeps it: identity, metadata and the secret bytes.
///
/// `description` never shows the secret.
public struct StoredRecord: Sendable, Hashable, CustomStringConvertible {
    /// The record's identity.
    public var id: RecordID
    /// The non-secret attributes.
    public var metadata: RecordMetadata
    /// The secret: a password's UTF-8 bytes, or a generic secret's bytes.
    public var secret: [UInt8]

    /// Creates a record.
    public init(id: RecordID, metadata: RecordMetadata, secret: [UInt8]) {
        self.id = id
        self.metadata = metadata
        self.secret = secret
    }

    /// Identity and metadata, with the secret's length but never its bytes.
    public var description: String {
        "StoredRecord(\(id), username: \(metadata.username), url: \(metadata.url), secret: \(secret.count) bytes)"
    }
}

/// A record without its secret, as listing returns it.
public struct RecordSummary: Sendable, Hashable, Codable {
    /// The record's identity.
    public var id: RecordID
    /// The non-secret attributes.
    public var metadata: RecordMetadata

    /// Creates a summary.
    public init(id: RecordID, metadata: RecordMetadata) {
        self.id = id
        self.metadata = metadata
    }
}
