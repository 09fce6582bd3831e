import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The async face: the same calls, for async code.
///
/// Each runs the synchronous call on this keyring's `BlockingExecutor`, a
/// serial queue of the library's own, so a D-Bus call, an unlock prompt, a
/// file-lock wait or a key derivation never blocks one of Swift concurrency's
/// few cooperative threads. Calls through one keyring (and its copies) run one
/// at a time, in the order they were made.
///
/// A read the store can answer with nothing to wait for (the file store with its
/// lock free and its file unchanged, the memory store) is answered on the
/// calling thread when the keyring has nothing queued, which saves the hop.
///
/// Cancelling the calling task makes the call throw `CancellationError` at
/// once. Beneath it, the D-Bus call in flight is cancelled, an unlock prompt is
/// dismissed and a file-lock wait stops. A call cancelled before its turn came
/// does nothing. A write that had begun is either stopped before it changed
/// anything or, once it cannot be stopped without losing data, finishes in the
/// background: a cancelled `set` leaves the old record or the new one, never
/// neither and never both; read the key again to learn which. A cancelled
/// `removeAll` may have removed some of the records.
extension Keyring {
    // MARK: Keyed credentials

    /// Stores `credentials` under `key`, replacing what was there; the async face of `set(_:forKey:)`.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` naming the bad field (nothing is stored then), a store
    ///   error, or `CancellationError` (the old record or the new one is kept then).
    public func set(_ credentials: Credentials, forKey key: String) async throws {
        try await executor.run { try self.set(credentials, forKey: key) }
    }

    /// The credentials stored under `key`, or `nil`; the async face of `credentials(forKey:)`.
    /// - Throws: ``KeyringError/locked`` when they exist but cannot be read now, another store error,
    ///   or `CancellationError`.
    public func credentials(forKey key: String) async throws -> Credentials? {
        if case .answered(let record) = try immediateRecord(key, .credentials), record != nil || syncStore == nil {
            return try Self.credentials(taking: consume record)
        }
        return try await executor.run { try self.credentials(forKey: key) }
    }

    /// Only the password stored under `key`, or `nil`; the async face of `password(forKey:)`.
    /// - Throws: as `credentials(forKey:)`.
    public func password(forKey key: String) async throws -> String? {
        if case .answered(let record) = try immediateRecord(key, .credentials), record != nil || syncStore == nil {
            return try Self.password(taking: consume record)
        }
        return try await executor.run { try self.password(forKey: key) }
    }

    /// Removes the credentials stored under `key`; the async face of `remove(forKey:)`.
    /// - Returns: `true` when a record was removed, `false` when there was none.
    /// - Throws: a store error, or `CancellationError` (the record may be removed or not then).
    @discardableResult
    public func remove(forKey key: String) async throws -> Bool {
        try await executor.run { try self.remove(forKey: key) }
    }

    // MARK: The default record

    /// Stores the default credentials; the async face of `setDefault(_:)`.
    public func setDefault(_ credentials: Credentials) async throws {
        try await executor.run { try self.setDefault(credentials) }
    }

    /// The default credentials, or `nil`; the async face of `defaultCredentials()`.
    public func defaultCredentials() async throws -> Credentials? {
        try await executor.run { try self.defaultCredentials() }
    }

    /// Removes the default credentials; `false` when there were none. The async face of `removeDefault()`.
    @discardableResult
    public func removeDefault() async throws -> Bool {
        try await executor.run { try self.removeDefault() }
    }

    // MARK: The whole service

    /// The credentials records of this service, sorted by key, without passwords; the async face of
    /// `list(syncEnabled:backgroundAccess:place:)`.
    public func list(syncEnabled: Bool? = nil, backgroundAccess: Bool? = nil, place: RecordPlace? = nil) async throws
        -> [CredentialsSummary]
    {
        try await executor.run { try self.list(syncEnabled: syncEnabled, backgroundAccess: backgroundAccess, place: place) }
    }

    /// Removes every record of this service (only this machine's with `thisMachineOnly`); the async face of
    /// `removeAll(thisMachineOnly:)`.
    /// - Returns: how many records were removed.
    /// - Throws: a store error, or `CancellationError` (some records may be removed then).
    @discardableResult
    public func removeAll(thisMachineOnly: Bool = false) async throws -> Int {
        try await executor.run { try self.removeAll(thisMachineOnly: thisMachineOnly) }
    }

    /// Moves this machine's records that carry the sync flag into the shared store; the async face of
    /// `pushSyncedRecords()`.
    @discardableResult
    public func pushSyncedRecords() async throws -> Int {
        try await executor.run { try self.pushSyncedRecords() }
    }

    // MARK: Generic secrets

    /// Stores `secret` under `key`; the async face of `setSecret(_:forKey:sync:)`.
    public func setSecret(_ secret: Data, forKey key: String, sync: Bool = false) async throws {
        try await executor.run { try self.setSecret(secret, forKey: key, sync: sync) }
    }

    /// The secret stored under `key`, or `nil`; the async face of `secret(forKey:)`.
    public func secret(forKey key: String) async throws -> Data? {
        if case .answered(let record) = try immediateRecord(key, .secret), record != nil || syncStore == nil {
            return Self.secretData(taking: consume record)
        }
        return try await executor.run { try self.secret(forKey: key) }
    }

    /// Removes the secret stored under `key`; the async face of `removeSecret(forKey:)`.
    @discardableResult
    public func removeSecret(forKey key: String) async throws -> Bool {
        try await executor.run { try self.removeSecret(forKey: key) }
    }

    /// The keys of this service's secrets, sorted; the async face of `secretKeys()`.
    public func secretKeys() async throws -> [String] {
        try await executor.run { try self.secretKeys() }
    }

    // MARK: Reads answered at once

    /// The record under `key` read on the calling thread, when nothing makes that wait
    /// (on a two-store keyring only a record found locally is final: an absent one is asked of the shared store):
    /// the keyring has nothing queued (so no earlier call is overtaken) and the store
    /// answers without waiting (`ImmediateReads`). The hop to the queue and back costs
    /// more than a file-store lookup itself; a read that would wait still takes it.
    private func immediateRecord(_ key: String, _ kind: RecordKind) throws -> ImmediateRead<StoredRecord?> {
        guard let store = immediateReads, executor.isIdle else { return .wouldWait }
        try Task.checkCancellation()
        let id = try recordID(key, kind)
        return try fromStore { try store.immediateRecord(for: id) }
    }

    // MARK: Migration

    /// Copies every record of `source`'s service into this one; the async face of
    /// `migrate(from:removingFromSource:)`. It runs on this keyring's executor.
    /// - Throws: as the synchronous call; when cancelled, records copied so far stay copied
    ///   and nothing is removed from `source` unless every record had been copied.
    @discardableResult
    public func migrate(from source: Keyring, removingFromSource: Bool = false) async throws -> Int {
        try await executor.run { try self.migrate(from: source, removingFromSource: removingFromSource) }
    }
}

extension Keyring {
    /// Opens the keyring of `service` on the store the configuration selects; the async face of
    /// `init(service:configuration:)`.
    ///
    /// Opening may wait: selection asks the session bus (up to a second), the Secret
    /// Service store opens a session (up to its timeout), and a passphrase-protected
    /// file runs Argon2id (0.15 to 0.3 s). Here that runs on a thread of the library's own.
    /// - Parameters:
    ///   - service: the app's namespace, such as `com.example.mail`.
    ///   - configuration: which store, and its settings.
    ///   - syncStore: the shared store of the records with the sync flag; `nil` keeps every record in the selected store.
    ///   - sharedCopies: where this machine keeps which keys may have a copy in `syncStore`; `nil` means the default folder.
    ///   - logger: where the keyring and the store it opens log; `nil` means nowhere.
    /// - Throws: as the synchronous initialiser, or `CancellationError`.
    public init(
        service: String,
        configuration: KeyringConfiguration = KeyringConfiguration(),
        syncStore: (any CredentialStore)? = nil,
        sharedCopies: SharedCopyMarks? = nil,
        logger: Logger? = nil
    ) async throws {
        self = try await BlockingExecutor(label: "swift-keyring open \(service)").run {
            try Keyring(
                service: service, configuration: configuration, syncStore: syncStore, sharedCopies: sharedCopies,
                logger: logger)
        }
    }
}
