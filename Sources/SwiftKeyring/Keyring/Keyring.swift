import KeyringCrypto
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app's credentials, kept safe in the Secret Service or an encrypted file.
///
/// A ``Keyring`` is a namespace (`service`, such as `com.example.mail`) over a
/// ``CredentialStore``. It validates every record before it reaches the store,
/// keeps one default record for the single-account case and any number of
/// keyed ones, and `removeAll()` removes exactly this service's records.
///
/// ```swift
/// let keyring = try Keyring(service: "com.example.mail")
/// try keyring.setDefault(Credentials(username: "alice", password: pw,
///                                    url: URL(string: "https://mail.example.com")!))
/// let mine = try keyring.defaultCredentials()      // nil when none is stored
/// try keyring.set(work, forKey: "work")
/// for record in try keyring.list() { print(record.key, record.username) }
/// try keyring.removeAll()                          // at logout
/// ```
///
/// ``Keyring`` is a value that is safe to share between threads and tasks.
/// Every call has an async overload of the same name for async code
/// (`try await keyring.credentials(forKey:)`), which runs the synchronous call on
/// the keyring's own executor (a serial queue of the library's) and stops when its
/// task is cancelled.
///
/// Each public call makes one ``StoreCall`` when it starts, with one ``Deadline``
/// (the store's ``CredentialStore/callTimeout`` long, or the longer of the two
/// stores' on a two-store keyring) and the async call's cancellation, and hands it
/// to every store method it calls, in either store.
///
/// A keyring may hold a second, shared store (``syncStore``) for the records marked
/// sync, so that every host that opens it reads them: see <doc:SyncAcrossHosts>.
public struct Keyring: Sendable {
    /// The key of the default record. Passing it to the keyed calls reaches the default record too.
    public static let defaultKey = "@default"

    /// The app's namespace; every record this keyring reads or writes belongs to it.
    public let service: String
    /// The store the records live in: on a two-store keyring, the local store, which holds
    /// every record without the sync flag and is the only one asked for them.
    public let store: any CredentialStore
    /// The shared store of the records with the sync flag, such as an `EtcdStore`; `nil`
    /// (the default) keeps every record in `store`. See <doc:SyncAcrossHosts>.
    public let syncStore: (any CredentialStore)?
    /// Which store was chosen and why.
    public let selection: StoreSelection

    /// Where this keyring logs (at debug level: what was stored and removed, never a
    /// secret), and where a `Session` or `SecretStore` over it logs unless given another.
    public let logger: Logger
    /// Where the async face runs this keyring's calls, in order; copies of the keyring, and the
    /// `Session`s and `SecretStore`s on it, share it.
    package let executor: BlockingExecutor
    /// Which keys may have a copy in `syncStore`, kept on this machine, so that a device-only write asks
    /// the shared store only about those (see `Keyring+TwoStores.swift`).
    let sharedCopies: SharedCopyMarks
    /// `store`, when it can answer some reads at once; cast once here, as a cast per call costs more than the read.
    let immediateReads: (any ImmediateReads)?

    /// Opens the keyring of `service` on the store the configuration selects.
    ///
    /// With the default configuration the store comes from `SWIFT_KEYRING_BACKEND`
    /// or, when that is unset, from automatic selection (see ``StoreChoice/auto``).
    /// The choice and its reason are logged and kept in `selection`.
    /// - Parameters:
    ///   - service: the app's namespace, such as `com.example.mail`.
    ///   - configuration: which store, and its settings.
    ///   - syncStore: the shared store of the records with the sync flag, such as an `EtcdStore`;
    ///     `nil` keeps every record in the selected store.
    ///   - sharedCopies: where this machine keeps which keys may have a copy in `syncStore`;
    ///     `nil` means ``SharedCopyMarks/defaultFolder(environment:)`` of the configuration's environment.
    ///   - logger: where the keyring and the store it opens log; `nil` means nowhere, so pass
    ///     the program's own to see the store selection and what was stored and removed.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` for an empty service, `.invalidConfiguration` for an
    ///   unusable setting, or whatever opening the store throws.
    public init(
        service: String,
        configuration: KeyringConfiguration = KeyringConfiguration(),
        syncStore: (any CredentialStore)? = nil,
        sharedCopies: SharedCopyMarks? = nil,
        logger: Logger? = nil
    ) throws {
        try RecordValidation.checkService(service)
        let (store, selection) = try StoreSelector.select(configuration, logger: logger ?? .keyringSilent)
        let marks = sharedCopies ?? SharedCopyMarks(folder: SharedCopyMarks.defaultFolder(environment: configuration.environment))
        self.init(
            service: service, store: store, syncStore: syncStore, sharedCopies: marks, selection: selection, logger: logger)
    }

    /// Opens the keyring of `service` on a store the caller made, such as a ``MemoryStore`` in tests.
    ///
    /// ```swift
    /// let shared = try EtcdStore(configuration: EtcdConfiguration())   // KeyringEtcd
    /// let keyring = try Keyring(service: "com.example.mail", store: SecretServiceStore(), syncStore: shared)
    /// ```
    /// - Parameters:
    ///   - service: the app's namespace, such as `com.example.mail`.
    ///   - store: where the records live; on a two-store keyring, the records without the sync flag.
    ///   - syncStore: the shared store of the records with the sync flag; `nil` keeps every record in `store`.
    ///   - sharedCopies: where this machine keeps which keys may have a copy in `syncStore`;
    ///     `nil` means ``SharedCopyMarks/defaultFolder(environment:)``.
    ///   - logger: where the keyring logs; `nil` means nowhere.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` for an empty service.
    public init(
        service: String, store: any CredentialStore, syncStore: (any CredentialStore)? = nil,
        sharedCopies: SharedCopyMarks? = nil, logger: Logger? = nil
    ) throws {
        try RecordValidation.checkService(service)
        self.init(
            service: service,
            store: store,
            syncStore: syncStore,
            sharedCopies: sharedCopies ?? SharedCopyMarks(folder: SharedCopyMarks.defaultFolder()),
            selection: StoreSelection(kind: store.identity.kind, reason: "given by the caller"),
            logger: logger
        )
    }

    private init(
        service: String, store: any CredentialStore, syncStore: (any CredentialStore)?, sharedCopies: SharedCopyMarks,
        selection: StoreSelection, logger: Logger?
    ) {
        self.service = service
        self.store = store
        self.syncStore = syncStore
        self.sharedCopies = sharedCopies
        self.selection = selection
        self.logger = logger ?? .keyringSilent
        self.executor = BlockingExecutor(label: "swift-keyring \(store.identity.kind) \(service)")
        self.immediateReads = Self.immediateReads(of: store)
        if let syncStore {
            self.logger.debug(
                "records with the sync flag live in the shared store",
                metadata: ["service": "\(service)", "local": "\(store.identity)", "shared": "\(syncStore.identity)"])
        }
    }

    /// The ``StoreCall`` a public call hands its stores: one deadline from now, of the store's
    /// `callTimeout` (the longer of the two stores' on a two-store keyring), and the cancellation
    /// of the async call this runs for, if any.
    func startCall() -> StoreCall {
        .starting(timeout: max(store.callTimeout, syncStore?.callTimeout ?? .zero))
    }

    /// The identity of `key`, which must be a name any store can keep (not empty, no NUL).
    func recordID(_ key: String, _ kind: RecordKind) throws -> RecordID {
        try RecordValidation.checkKey(key)
        return RecordID(service: service, key: key, kind: kind)
    }

    // MARK: Keyed credentials

    /// Stores `credentials` under `key`, replacing what was there.
    ///
    /// The key and the username are kept byte for byte, whatever text they hold (a tab, a
    /// newline, any script), on every store; only an empty one or one with a NUL character
    /// (which a D-Bus string cannot carry) is refused.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` naming the bad field (nothing is stored then), or a store error.
    public func set(_ credentials: Credentials, forKey key: String) throws {
        let id = try recordID(key, .credentials)
        try credentials.validate()
        var record = credentials.storedRecord(id: id)
        defer { record.secret.wipe() }  // the password's bytes, once the store has sealed or copied them
        let place = try write(record, call: startCall())
        logger.debug("stored credentials", metadata: ["service": "\(service)", "key": "\(key)", "place": "\(place)"])
    }

    /// The credentials stored under `key`, or `nil` when there are none.
    /// - Throws: ``KeyringError/locked`` when they exist but cannot be read now, or another store error.
    public func credentials(forKey key: String) throws -> Credentials? {
        let id = try recordID(key, .credentials)
        return try Self.credentials(taking: try readRecord(id, call: startCall()))
    }

    /// Only the password stored under `key`, or `nil` when there are no credentials there.
    ///
    /// The quick path for callers that need nothing else: no metadata is decoded or
    /// validated. On the Secret Service it waits for as many round trips as
    /// `credentials(forKey:)` (the item's attributes travel with the secret, so a
    /// foreign item is never read as this record).
    /// - Throws: ``KeyringError/locked`` when the record exists but cannot be read now, or another store error.
    public func password(forKey key: String) throws -> String? {
        let id = try recordID(key, .credentials)
        return try Self.password(taking: try readSecret(id, call: startCall()), of: id)
    }

    /// Removes the credentials stored under `key`.
    /// - Returns: `true` when a record was removed, `false` when there was none.
    @discardableResult
    public func remove(forKey key: String) throws -> Bool {
        let id = try recordID(key, .credentials)
        let removed = try removeEverywhere(id, call: startCall())
        logger.debug("removed credentials", metadata: ["service": "\(service)", "key": "\(key)", "found": "\(removed)"])
        return removed
    }

    // MARK: The default record

    /// Stores the default credentials, replacing the previous default.
    public func setDefault(_ credentials: Credentials) throws {
        try set(credentials, forKey: Self.defaultKey)
    }

    /// The default credentials, or `nil` when none are stored.
    public func defaultCredentials() throws -> Credentials? {
        try credentials(forKey: Self.defaultKey)
    }

    /// Removes the default credentials; `false` when there were none.
    @discardableResult
    public func removeDefault() throws -> Bool {
        try remove(forKey: Self.defaultKey)
    }

    // MARK: The whole service

    /// The credentials records of this service, default included, sorted by key; no passwords.
    ///
    /// On a two-store keyring the records of both stores, merged, each with the
    /// ``CredentialsSummary/place`` it lives in; the shared store is asked only when
    /// `place` allows it, so `list(place: .local)` works with the shared store down.
    /// - Parameters:
    ///   - syncEnabled: when given, only records whose sync flag has this value.
    ///   - backgroundAccess: when given, only records whose background-access flag has this value.
    ///   - place: when given, only records that live there.
    /// - Throws: a store error; ``KeyringError/Code/serviceUnavailable`` when the shared store is needed and down.
    public func list(syncEnabled: Bool? = nil, backgroundAccess: Bool? = nil, place: RecordPlace? = nil) throws
        -> [CredentialsSummary]
    {
        try mergedSummaries(kind: .credentials, place: place, call: startCall())
            .compactMap { CredentialsSummary($0.summary, place: $0.place) }
            .filter { summary in
                (syncEnabled == nil || summary.syncEnabled == syncEnabled)
                    && (backgroundAccess == nil || summary.backgroundAccess == backgroundAccess)
            }
            .sorted { $0.key < $1.key }
    }

    /// Removes every record of this service, credentials and secrets, and nothing
    /// else: other services' records and other programs' items stay.
    ///
    /// On a two-store keyring this empties the shared store too, so the synced records
    /// are gone for every host, as removing an iCloud Keychain item is; the shared store
    /// is emptied first, and when it cannot be reached nothing is removed.
    /// `removeAll(thisMachineOnly: true)` empties only the local store ("log out of this host").
    /// - Parameter thisMachineOnly: whether to leave the shared store's records alone.
    /// - Returns: how many records were removed.
    @discardableResult
    public func removeAll(thisMachineOnly: Bool = false) throws -> Int {
        let call = startCall()
        var count = 0
        if let syncStore, !thisMachineOnly {
            count += try fromShared(syncStore) { try syncStore.removeAll(service: service, kind: nil, call: call) }
            sharedCopies.unmarkAll(service: service)
        }
        count += try fromStore { try store.removeAll(service: service, kind: nil, call: call) }
        logger.debug(
            "removed all records",
            metadata: ["service": "\(service)", "count": "\(count)", "thisMachineOnly": "\(thisMachineOnly || syncStore == nil)"])
        return count
    }
}

extension Keyring {
    /// The place the keyring's errors name: its store.
    var errorPlace: KeyringError.Place { KeyringError.Place(store: store.identity.kind) }

    /// Runs a call of the store, so that every `KeyringError` passing out of it
    /// names the store ("the etcd record is damaged"): errors are placed where
    /// they leave the store, because the code that throws them (the sealed
    /// record format, say) is shared by several stores and cannot know which.
    func fromStore<T>(_ body: () throws -> T) rethrows -> T {
        try KeyringError.placing(in: errorPlace, body)
    }
}
