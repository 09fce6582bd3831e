import Synchronization

/// A store opened when a call first needs it, such as the shared store of a two-store
/// ``Keyring``: a process whose calls the local store answers never opens it, so a fleet
/// that cannot be reached costs those calls nothing.
///
/// ```swift
/// let settings = EtcdConfiguration(endpoints: members)            // KeyringEtcd
/// let shared = LazyStore(identity: EtcdStore.identity(of: settings), callTimeout: settings.timeout) { call in
///     try EtcdStore(configuration: settings, call: call)
/// }
/// let keyring = try Keyring(service: "com.example.mail", syncStore: shared)
/// ```
///
/// Opening runs within the deadline of the call that needs it, and no longer than
/// `callTimeout`. A failed opening is not kept: the next call tries again, so a long-lived
/// process finds the store once it is back. Once open, the store is kept, and two calls
/// that open it at once keep the first one opened.
public final class LazyStore: CredentialStore {
    private let declared: StoreIdentity
    private let open: @Sendable (StoreCall) throws -> any CredentialStore
    private let opened = Mutex<(any CredentialStore)?>(nil)

    /// The identity `identity` said, until the store opens; then the opened store's own.
    public var identity: StoreIdentity { opened.withLock { $0 }?.identity ?? declared }

    /// The bound on one call, opening included.
    public let callTimeout: Duration

    /// Whether a call has opened the store.
    public var isOpen: Bool { opened.withLock { $0 } != nil }

    /// - Parameters:
    ///   - identity: what the store is, as far as can be said without opening it; errors name it.
    ///   - callTimeout: the bound on one call, as the opened store's own `callTimeout`.
    ///   - open: opens the store within the deadline of the call it is handed.
    public init(
        identity: StoreIdentity, callTimeout: Duration, open: @escaping @Sendable (StoreCall) throws -> any CredentialStore
    ) {
        declared = identity
        self.callTimeout = callTimeout
        self.open = open
    }

    /// The store, opened now if no call has opened it.
    private func store(_ call: StoreCall) throws -> any CredentialStore {
        if let store = opened.withLock({ $0 }) { return store }
        // No longer than the store's own bound, as an eager opening would wait: the keyring's call may
        // be longer (the longer of its two stores'), and a fleet that is down should cost no more than that.
        let fresh = try open(StoreCall(deadline: call.deadline.capped(at: callTimeout), cancellation: call.cancellation))
        return opened.withLock { current in
            if let current { return current }
            current = fresh
            return fresh
        }
    }

    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        try store(call).record(for: id, call: call)
    }

    public func secret(for id: RecordID, call: StoreCall) throws -> [UInt8]? {
        try store(call).secret(for: id, call: call)
    }

    public func save(_ record: StoredRecord, call: StoreCall) throws {
        try store(call).save(record, call: call)
    }

    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        try store(call).removeRecord(for: id, call: call)
    }

    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        try store(call).summaries(service: service, kind: kind, call: call)
    }

    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        try store(call).removeAll(service: service, kind: kind, call: call)
    }
}
