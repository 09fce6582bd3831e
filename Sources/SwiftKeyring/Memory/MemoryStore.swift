import Synchronization

/// A store that keeps records in memory, for an app's own tests and previews.
///
/// Nothing is written anywhere; the records live as long as the instance.
/// Copies of a ``Keyring`` built on one ``MemoryStore`` share its records.
///
/// ```swift
/// let keyring = try Keyring(service: "com.example.mail", store: MemoryStore())
/// ```
public final class MemoryStore: CredentialStore, ImmediateReads {
    private let records = Mutex<[RecordID: StoredRecord]>([:])

    /// Creates an empty store.
    public init() {}

    /// `memory`; nothing tells one memory store from another but the instance.
    public var identity: StoreIdentity { StoreIdentity(kind: .memory) }

    /// The record under `id`: memory only, so always at once. For the async face.
    package func immediateRecord(for id: RecordID) throws -> ImmediateRead<StoredRecord?> {
        .answered(records.withLock { $0[id] })
    }

    /// Returns the record stored under `id`, or `nil`; nothing here waits, so `call` is not consulted.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        records.withLock { $0[id] }
    }

    /// Stores `record`, replacing any record with the same identity.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        records.withLock { $0[record.id] = record }
    }

    /// Removes the record under `id`; `false` when there was none.
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        records.withLock { $0.removeValue(forKey: id) != nil }
    }

    /// The records of `service` (and `kind`, when given), sorted by key.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        records.withLock { all in
            all.values
                .filter { $0.id.service == service && (kind == nil || $0.id.kind == kind) }
                .map { RecordSummary(id: $0.id, metadata: $0.metadata) }
                .sorted { ($0.id.key, $0.id.kind.rawValue) < ($1.id.key, $1.id.kind.rawValue) }
        }
    }

    /// Removes the records of `service` (and `kind`, when given).
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        records.withLock { all in
            let doomed = all.keys.filter { $0.service == service && (kind == nil || $0.kind == kind) }
            for id in doomed { all.removeValue(forKey: id) }
            return doomed.count
        }
    }
}
