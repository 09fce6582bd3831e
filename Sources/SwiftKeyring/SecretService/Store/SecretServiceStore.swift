import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A store in the desktop's Secret Service (gnome-keyring, KeePassXC, …), over D-Bus.
///
/// One item per record in the default collection (or the collection named by
/// `collection`), with the attributes `tag`
/// (`swift-keyring`), `service`, `key`, `kind`, `username`, `url`, `sync` and
/// `background-access`, and a label readable in Seahorse. Every D-Bus call of a
/// store call is bounded by the call's deadline (`timeout` long when ``Keyring``
/// makes it), so a hung daemon gives `KeyringError.timedOut` instead of a hang;
/// `removeAll` bounds each item's deletion by a deadline of the same length rather
/// than the whole loop, and the call after an unlock prompt gets a fresh one.
///
/// A locked keyring is unlocked on demand: the daemon may show its unlock
/// prompt, and the call then waits for the person for up to `promptTimeout`
/// (not `timeout`). A dismissed prompt is `KeyringError.promptDismissed`; a
/// prompt nobody answers in time is dismissed by the store and reported as
/// `.promptTimedOut`. Reading, storing and removing may
/// prompt; listing never does, since attributes are readable while locked. When the daemon restarts (after a
/// crash, or a new login), the next call connects anew and carries on.
///
/// ```swift
/// let store = try SecretServiceStore(timeout: .seconds(2))
/// let keyring = try Keyring(service: "com.example.mail", store: store)
/// ```
///
/// The store talks to the bus named by the `environment` it was given, on a
/// connection of its own, so it can be aimed at another bus than the process's.
///
/// With no default collection (WSL, a minimal session, a fresh KWallet), a write
/// asks the daemon to create one (gnome-keyring asks for its password at a
/// prompt), and else writes to the in-memory `session` collection only when
/// `sessionFallback` allows it; otherwise it fails with
/// ``KeyringError/Unavailability/Kind/noCollection``. A named `collection` (its
/// alias, label or object path) is a boundary: reads, lists and removals see only
/// its items, and new items go there.
///
/// On gnome-keyring a store remembers which item holds each record it read (the
/// item's path and attributes, never its secret), so from its third lookup on, a
/// record read before costs one D-Bus call instead of a search and a read. What
/// it remembers is dropped the moment the daemon announces any change, by any
/// process, so a lookup never returns an older value than the search would.
public final class SecretServiceStore: CredentialStore {
    let client: ReopeningClient
    let timeout: Duration
    /// The bus this store talks to, for its identity.
    private let address: String
    let prompt: PromptBound
    /// The collection asked for, for the store's identity.
    let collection: CollectionChoice
    /// Writes within this process, one at a time, so two saves of one key never
    /// interleave their create-then-clean-up steps.
    private let writes = Mutex(())
    /// Writes of one service across processes, one at a time (see `SecretServiceWriteLock`).
    private let writeLock: SecretServiceWriteLock

    /// Connects to the session bus; the first call greets the Secret Service daemon, in the
    /// same write as `Hello`, and makes its own calls once the greeting is answered (a first
    /// lookup waits for three round trips in all).
    ///
    /// ```swift
    /// // A person gets a minute to answer an unlock prompt; the daemon, 2 s a call.
    /// let store = try SecretServiceStore(timeout: .seconds(2), promptTimeout: .seconds(60))
    /// ```
    /// - Parameters:
    ///   - timeout: the bound on every D-Bus call of an operation, connecting included.
    ///   - promptTimeout: how long an unlock prompt may wait for the person, 120 seconds unless given.
    ///   - environment: where `DBUS_SESSION_BUS_ADDRESS` (or `XDG_RUNTIME_DIR`) is read from.
    ///   - logger: where the store says, at notice level, that the daemon restarted and a new
    ///     session was opened; `nil` means nowhere.
    ///   - collection: the collection to read and write, by its alias, label or object path;
    ///     `nil` means the default collection. A name that matches no collection fails at
    ///     the first call that needs it, with ``KeyringError/Unavailability/Kind/noCollection``.
    ///   - sessionFallback: whether, with no default collection and none the daemon creates,
    ///     records may go to the `session` collection, which the daemon keeps in memory
    ///     only (they are gone at logout). Off unless asked for.
    /// - Throws: `KeyringError.serviceUnavailable` when there is no session bus to connect to
    ///   (a bus or daemon that does not answer, or no daemon, is the first call's error, as
    ///   `.serviceUnavailable` or `.timedOut`),
    ///   `.invalidConfiguration` naming `timeout` or `promptTimeout` when one is not longer than zero,
    ///   or `collection` when it is empty.
    public convenience init(
        timeout: Duration = .seconds(5),
        promptTimeout: Duration = SecretServiceStore.defaultPromptTimeout,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger? = nil,
        collection: String? = nil,
        sessionFallback: Bool = false
    ) throws {
        try self.init(
            timeout: timeout, promptTimeout: promptTimeout, environment: environment, logger: logger,
            collection: collection, sessionFallback: sessionFallback, bus: nil)
    }

    /// The public init, greeting the daemon on `bus` (the connection store selection's
    /// probe found it on) rather than connecting anew, when it is given.
    convenience init(
        timeout: Duration, promptTimeout: Duration, environment: [String: String], logger: Logger?,
        collection: String?, sessionFallback: Bool, bus: ProbedBus?
    ) throws {
        do {
            try self.init(
                opening: timeout, promptTimeout, environment, logger,
                CollectionChoice(name: collection, sessionFallback: sessionFallback), bus)
        } catch let error as KeyringError {
            throw error.placed(in: .secretService)
        }
    }

    /// Connects; the public init names the Secret Service in the errors that pass out.
    private init(
        opening timeout: Duration,
        _ promptTimeout: Duration,
        _ environment: [String: String],
        _ logger: Logger?,
        _ collection: CollectionChoice,
        _ bus: ProbedBus?
    ) throws {
        try Self.checkSettings(timeout: timeout, promptTimeout: promptTimeout, collection: collection.name)
        let address = try SessionBusAddress.resolve(environment)
        // The probe's connection only when it was made to this very address (the same environment gives it).
        let probed = bus.flatMap { $0.address == address ? $0 : nil }
        client = try ReopeningClient(
            address: address, collection: collection, probed: probed, deadline: Deadline(timeout),
            logger: logger ?? .keyringSilent)
        self.collection = collection
        self.timeout = timeout
        self.address = address
        writeLock = SecretServiceWriteLock(environment: environment)
        prompt = PromptBound(timeout: promptTimeout, display: Self.canShowPrompt(environment: environment))
    }

    /// The settings a store refuses before it connects: bounds that are not longer than zero,
    /// and an empty collection name.
    static func checkSettings(timeout: Duration, promptTimeout: Duration, collection: String?) throws {
        for (setting, value) in [("timeout", timeout), ("promptTimeout", promptTimeout)] where value <= .zero {
            throw KeyringError.invalidConfiguration(setting: setting, reason: "must be longer than zero")
        }
        if collection?.isEmpty == true {
            throw KeyringError.invalidConfiguration(setting: "collection", reason: "must not be empty")
        }
    }

    /// The operation `asked` of this store within `deadline`, with the store's prompt bound.
    func operation(_ asked: String, _ deadline: Deadline) -> SecretOperation {
        SecretOperation(asked, deadline: deadline, prompt: prompt)
    }

    /// How long an unlock prompt waits for the person unless told otherwise: long enough to type a password.
    public static let defaultPromptTimeout: Duration = .seconds(120)

    /// How many lookups were answered with one call on a remembered item path (see
    /// `ItemMemory`), since the current session opened; for tests of that path.
    package var lookupsFromMemory: Int { client.memory?.lookupsFromMemory ?? 0 }

    /// Whether this store's memory watches the daemon, so that what it finds is remembered
    /// (after its second search, on gnome-keyring only); for tests of that path.
    package var remembersFindings: Bool { client.memory?.isWatching ?? false }

    /// `secret-service`, with the session bus it talks to (and the collection, when one is named).
    public var identity: StoreIdentity {
        StoreIdentity(
            kind: .secretService,
            details: [StoreDetail("bus", address)] + (collection.name.map { [StoreDetail("collection", $0)] } ?? []))
    }

    /// `timeout`: the bound on the D-Bus calls of one store call.
    public var callTimeout: Duration { timeout }

    /// Whether the collection in use (the default one, or the one named) is locked now;
    /// `swift-keyring doctor` shows it.
    /// - Throws: `KeyringError` when the daemon cannot be asked, for example `.timedOut`, or
    ///   ``KeyringError/Unavailability/Kind/noCollection`` when there is no such collection.
    public func isLocked() throws -> Bool {
        let operation = self.operation("read whether the collection is locked", Deadline(timeout))
        return try client.run(operation) { try $0.isCollectionLocked(in: operation) }
    }

    /// Returns the record stored under `id`, or `nil` when there is none.
    ///
    /// A locked item is first offered to the daemon to unlock (which may prompt).
    /// What the daemon answers is checked before it is trusted: an item whose
    /// attributes are not `id`'s (a search may return one: KeePassXC's skips
    /// protected attributes) is not this record, and a secret larger than a write
    /// may store is refused.
    /// - Throws: `KeyringError.locked` when the record exists but stays locked,
    ///   `.promptDismissed`, `.timedOut`, `.invalidRecord` for a stored secret no write
    ///   could have made, or another store error.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        // The client finds the call's cancellation bound to the thread.
        try call.bind { try record(for: id, deadline: call.deadline) }
    }

    /// `record(for:call:)` within `deadline`, the call's one bound, a reopen after a daemon restart included.
    func record(for id: RecordID, deadline: Deadline) throws -> StoredRecord? {
        let operation = self.operation("read \(id)", deadline)
        return try client.run(operation) { client in
            if let remembered = client.memory.recall(id),
                let secret = try client.secret(remembered: remembered, of: id, in: operation)
            {
                return StoredRecord(
                    id: remembered.summary.id, metadata: remembered.summary.metadata, secret: try Self.checked(secret, of: id))
            }
            return try lookUp(id, client, in: operation)
        }
    }

    /// Returns only the secret stored under `id`, or `nil`; checked as `record(for:)`
    /// checks, since the item's attributes travel with the secret (both asked at once,
    /// one round trip). A record read before is one call: the secret alone.
    /// - Throws: as `record(for:)`.
    public func secret(for id: RecordID, call: StoreCall) throws -> [UInt8]? {
        try call.bind { try secret(for: id, deadline: call.deadline) }
    }

    /// `secret(for:call:)` within `deadline`.
    private func secret(for id: RecordID, deadline: Deadline) throws -> [UInt8]? {
        let operation = self.operation("read \(id)", deadline)
        return try client.run(operation) { client in
            if let remembered = client.memory.recall(id),
                let secret = try client.secret(remembered: remembered, of: id, in: operation)
            {
                return try Self.checked(secret, of: id)
            }
            return try lookUp(id, client, in: operation)?.secret
        }
    }

    /// The record `id` as the daemon holds it now: each matching item read with its
    /// attributes, newest first (the greatest path, the one writes keep among
    /// duplicates: see `ItemReplacement`), until one really is `id`'s; remembered for
    /// the next lookup.
    private func lookUp(_ id: RecordID, _ client: SecretServiceClient, in operation: SecretOperation) throws
        -> StoredRecord?
    {
        let mark = client.memory.markBeforeSearch(deadline: operation.deadline)
        let paths = try client.unlockedPaths(.identity(id), in: operation, openingSession: true)
        for path in paths.sorted(by: ItemReplacement.precedes).reversed() {
            guard let record = try client.record(at: path, in: operation), record.id == id else {
                continue
            }
            _ = try Self.checked(record.secret, of: id)
            client.memory.remember(id, at: path, summary: RecordSummary(id: record.id, metadata: record.metadata), since: mark)
            return record
        }
        return nil
    }

    /// `secret`, unless it is longer than any write stores for `id`'s kind: a
    /// password is at most 1 MiB, a generic secret 16 MiB.
    static func checked(_ secret: [UInt8], of id: RecordID) throws -> [UInt8] {
        let (field, limit, words) =
            id.kind == .credentials
            ? ("password", RecordValidation.maximumPasswordBytes, "1 MiB")
            : ("secret", RecordValidation.maximumSecretBytes, "16 MiB")
        guard secret.count <= limit else {
            throw KeyringError.invalidRecord(
                field: field,
                reason: "is longer than \(words) as the Secret Service holds it (\(secret.count) bytes), "
                    + "which no write of this library stores")
        }
        return secret
    }

    /// Stores `record`, replacing any record with the same `id`: afterwards exactly one item holds it.
    ///
    /// An existing item of ours is changed in place (usually only its secret);
    /// otherwise a new one is created. Stale duplicates are deleted after, so
    /// there is never a moment with no record, and items without our tag are
    /// never touched. See `ItemReplacement` for why this works on KeePassXC too.
    ///
    /// A cancelled async call stops a save only before its writes begin (an unlock
    /// prompt it waits for is cancelled too): a `CreateItem` or `SetSecret` cut short
    /// may still take effect in the daemon after we stop waiting, and a clean-up cut
    /// short leaves two items, so once its writes begin they run to their end within
    /// `timeout`, leaving the old record or the new one.
    /// - Throws: `KeyringError.locked` when the collection is locked, `.timedOut`, or another store error.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        try call.bind { try save(record, deadline: call.deadline) }
    }

    /// `save(_:call:)` within `deadline`.
    private func save(_ record: StoredRecord, deadline: Deadline) throws {
        let operation = self.operation("store \(record.id)", deadline)
        try writes.withLock { _ in
            try writeLock.run(service: record.id.service, operation.asked, deadline: operation.deadline) {
                try OperationCancellation.check()
                try client.run(operation) { client in
                    try unlockingDefaultCollection(client, in: operation) {
                        try ItemReplacement.save(record, client, in: operation)
                    }
                }
            }
        }
    }

    /// Runs `body`; when it finds the default collection locked (gnome-keyring
    /// refuses `CreateItem` then), unlocks the collection, which may prompt, and
    /// runs `body` once more with a fresh call bound.
    ///
    /// Unlocking only on refusal keeps an unlocked keyring's `save` to the calls it needs.
    private func unlockingDefaultCollection<Result>(
        _ client: SecretServiceClient, in operation: SecretOperation, _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch KeyringError.locked {
            operation.renewDeadline()
            try client.unlockCollection(in: operation)
            return try body()
        }
    }

    /// Removes the record stored under `id`.
    /// - Returns: `true` when a record was removed, `false` when there was none.
    /// - Throws: `KeyringError.locked` when it exists but stays locked (nothing is removed then).
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        try removeItems(.identity(id), of: id.service, asked: "remove \(id)", call: call) > 0
    }

    /// Lists the records of `service` (of one `kind`, or all kinds), sorted by key; no secrets are read.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        try call.bind { try summaries(service: service, kind: kind, deadline: call.deadline) }
    }

    /// `summaries(service:kind:call:)` within `deadline`.
    private func summaries(service: String, kind: RecordKind?, deadline: Deadline) throws -> [RecordSummary] {
        let operation = self.operation("list \(service)", deadline)
        let summaries = try client.run(operation) { client in
            let paths = try client.searchPaths(.scope(service: service, kind: kind), in: operation)
            return try client.summaries(at: paths.unlocked + paths.locked, in: operation)
        }
        // A search may return items of another service or kind (KeePassXC's skips
        // protected attributes, and a daemon may simply be wrong): only this scope's are listed.
        let ours = summaries.filter { summary in
            summary.id.service.utf8.elementsEqual(service.utf8) && (kind == nil || summary.id.kind == kind)
        }
        return ours.sorted { ($0.id.key, $0.id.kind.rawValue) < ($1.id.key, $1.id.kind.rawValue) }
    }

    /// Removes every item tagged `swift-keyring` of `service` (and `kind`, when given);
    /// other services' items and items without the tag are never touched.
    ///
    /// The call's deadline bounds the search; each deletion then has a deadline of the
    /// same length of its own: gnome-keyring rewrites its file on every delete, so
    /// removing 1,000 items takes tens of seconds, yet none of its calls may hang.
    /// - Returns: how many items were removed.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        try removeItems(.scope(service: service, kind: kind), of: service, asked: "remove all of \(service)", call: call)
    }

    /// Deletes every item matching `attributes`, after unlocking what must be;
    /// when something stays locked nothing is deleted.
    private func removeItems(_ attributes: SecretAttributes, of service: String, asked: String, call: StoreCall)
        throws -> Int
    {
        try call.bind {
            let operation = self.operation(asked, call.deadline)
            return try writes.withLock { _ in
                try writeLock.run(service: service, operation.asked, deadline: operation.deadline) {
                    try removeItemsLocked(attributes, in: operation)
                }
            }
        }
    }

    /// `removeItems` once this process holds the service's write lock.
    private func removeItemsLocked(_ attributes: SecretAttributes, in operation: SecretOperation) throws -> Int {
        let paths = try client.run(operation) { client in
            let found = try client.unlockedPaths(attributes, in: operation)
            // Read back before deleting: a search alone may match a foreign item (KeePassXC).
            return try ItemReplacement.ours(found, attributes, client, in: operation)
        }
        // One deadline per Delete, not for the loop: gnome-keyring rewrites its whole
        // file on each delete (36–55 ms an item at 1,000 items, Benchmarks/BENCHMARKS.md),
        // so a large removeAll is long but never stuck, and each call is still bounded.
        // An item another process deleted first is not counted: this call did not remove it.
        var removed = 0
        for path in paths {
            let deletion = operation.withFreshDeadline()
            if try client.run(deletion, { try $0.delete(path, in: deletion) }) { removed += 1 }
        }
        return removed
    }
}
