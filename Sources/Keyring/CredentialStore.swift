/// The storage behind a ``Keyring``: the Secret Service, the encrypted file, or memory.
///
/// A store keeps ``StoredRecord``s by ``RecordID``. It does not validate records:
/// ``Keyring`` does that before a record reaches it. Every implementation must be
/// safe to call from many threads at once, and every call that can wait (on
/// D-Bus, a prompt or a file lock) must give up with ``KeyringError/timedOut(operation:seconds:)``
/// rather than hang.
///
/// Implement this protocol to plug another storage into ``Keyring``; ``MemoryStore``
/// is the smallest example.
public protocol CredentialStore: Sendable {
    /// A short name for logs and `swift-keyring doctor`, such as `secret-service`.
    var name: String { get }

    /// Returns the record stored under `id`, or `nil` when there is none.
    /// - Throws: ``KeyringError``, for example `.locked` when the record exists but cannot be read.
    func record(for id: RecordID) throws -> StoredRecord?

    /// Returns only the secret stored under `id`, or `nil` when there is none.
    ///
    /// For callers that need the password and nothing else; a store may answer it
    /// with less work than `record(for:)` (the Secret Service skips reading the
    /// item's attributes). The default implementation calls `record(for:)`.
    /// - Throws: as `record(for:)`.
    func secret(for id: RecordID) throws -> [UInt8]?

    /// Stores `record`, replacing any record with the same `id`: afterwards exactly one exists.
    /// - Throws: ``KeyringError``; on failure the previous record is left as it was.
    func save(_ record: StoredRecord) throws

    /// Removes the record stored under `id`.
    /// - Returns: `true` when a record was removed, `false` when there was none.
    @discardableResult
    func removeRecord(for id: RecordID) throws -> Bool

    /// Lists the records of `service` (of one `kind`, or of all kinds when `nil`), without secrets.
    func summaries(service: String, kind: RecordKind?) throws -> [RecordSummary]

    /// Removes every record of `service` (of one `kind`, or of all kinds when `nil`)
    /// and nothing else: other services' records and records written by other
    /// programs are never touched.
    /// - Returns: how many records were removed.
    @discardableResult
    func removeAll(service: String, kind: RecordKind?) throws -> Int
}

extension CredentialStore {
    /// The secret of `record(for:)`: stores with a cheaper way override this.
    public func secret(for id: RecordID) throws -> [UInt8]? {
        try record(for: id)?.secret
    }
}
