/// The storage behind a ``Keyring``: the Secret Service, the encrypted file, memory, etcd, or your own.
///
/// A store keeps ``StoredRecord``s by ``RecordID``. It does not validate records:
/// ``Keyring`` does that before a record reaches it. Every implementation must be
/// safe to call from many threads at once.
///
/// Each method gets the ``StoreCall`` of the public keyring call it serves: one
/// ``Deadline`` for everything the method waits on, and the cancellation of an async
/// call whose task was cancelled. A method that can wait (on a daemon, a prompt, a
/// lock, the network) gives up with ``KeyringError/timedOut(operation:seconds:)`` when
/// the deadline passes, rather than hang, and should stop early when the call is cancelled.
///
/// Implement this protocol to plug another storage into ``Keyring``; ``MemoryStore``
/// is the smallest example. Code that calls a store directly can leave out the
/// `call:` argument: each call then has a deadline of ``callTimeout`` of its own.
public protocol CredentialStore: Sendable {
    /// What the store is, for selection, logs and `swift-keyring doctor`; never a secret.
    var identity: StoreIdentity { get }

    /// The budget of one call: ``Keyring`` makes each call's ``Deadline`` this long.
    /// The default is five seconds.
    var callTimeout: Duration { get }

    /// Returns the record stored under `id`, or `nil` when there is none.
    /// - Throws: ``KeyringError``, for example `.locked` when the record exists but cannot be read.
    func record(for id: RecordID, call: StoreCall) throws -> StoredRecord?

    /// Returns only the secret stored under `id`, or `nil` when there is none.
    ///
    /// For callers that need the password and nothing else; a store may answer it
    /// with less work than `record(for:call:)` (the Secret Service skips reading the
    /// item's attributes). The default implementation calls `record(for:call:)`.
    /// - Throws: as `record(for:call:)`.
    func secret(for id: RecordID, call: StoreCall) throws -> [UInt8]?

    /// Stores `record`, replacing any record with the same `id`: afterwards exactly one exists.
    /// - Throws: ``KeyringError``; on failure the previous record is left as it was.
    func save(_ record: StoredRecord, call: StoreCall) throws

    /// Removes the record stored under `id`.
    /// - Returns: `true` when a record was removed, `false` when there was none.
    @discardableResult
    func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool

    /// Lists the records of `service` (of one `kind`, or of all kinds when `nil`), without secrets.
    func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary]

    /// Removes every record of `service` (of one `kind`, or of all kinds when `nil`)
    /// and nothing else: other services' records and records written by other
    /// programs are never touched.
    /// - Returns: how many records were removed.
    @discardableResult
    func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int
}

extension CredentialStore {
    /// Five seconds, as `KeyringConfiguration.timeout`'s default.
    public var callTimeout: Duration { .seconds(5) }

    /// The secret of `record(for:call:)`: stores with a cheaper way override this.
    public func secret(for id: RecordID, call: StoreCall) throws -> [UInt8]? {
        try record(for: id, call: call)?.secret
    }

    /// The call a method called without one makes: ``callTimeout`` from now, cancelled with
    /// the async keyring call running on this thread, if any.
    private var ownCall: StoreCall { .starting(timeout: callTimeout) }

    /// `record(for:call:)` as a call of its own.
    public func record(for id: RecordID) throws -> StoredRecord? {
        try record(for: id, call: ownCall)
    }

    /// `secret(for:call:)` as a call of its own.
    public func secret(for id: RecordID) throws -> [UInt8]? {
        try secret(for: id, call: ownCall)
    }

    /// `save(_:call:)` as a call of its own.
    public func save(_ record: StoredRecord) throws {
        try save(record, call: ownCall)
    }

    /// `removeRecord(for:call:)` as a call of its own.
    @discardableResult
    public func removeRecord(for id: RecordID) throws -> Bool {
        try removeRecord(for: id, call: ownCall)
    }

    /// `summaries(service:kind:call:)` as a call of its own.
    public func summaries(service: String, kind: RecordKind?) throws -> [RecordSummary] {
        try summaries(service: service, kind: kind, call: ownCall)
    }

    /// `removeAll(service:kind:call:)` as a call of its own.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?) throws -> Int {
        try removeAll(service: service, kind: kind, call: ownCall)
    }
}
