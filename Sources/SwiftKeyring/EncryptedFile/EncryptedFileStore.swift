import KeyringCrypto
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A store that keeps records in one libgcrypt-encrypted file, for hosts
/// without a Secret Service: servers, containers, CI.
///
/// Everything but a small header is encrypted, names included (the format is in
/// `docs/FILE_FORMAT.md`). The key comes from a passphrase through Argon2id, or
/// is a raw 32-byte key. Once open, the store keeps the file and an index of its
/// names in memory, with each record's metadata and secret still encrypted until
/// a lookup asks for them, so a lookup costs about the same at 100 records and at
/// 100,000, and the store takes about twice the file's size in memory; it reads
/// the file again only when another process or store has written it.
///
/// Writes are atomic and durable (temporary file, fsync, rename, fsync of the
/// folder) and serialised across processes by an advisory lock beside the
/// file, so several processes can share one file and nothing is lost when one
/// dies mid-write. The store is safe to use from many threads.
///
/// ```swift
/// let store = try EncryptedFileStore(url: EncryptedFileStore.defaultURL(),
///                                    secret: try FileStoreSecret.resolve())
/// let keyring = try Keyring(service: "com.example.mail", store: store)
/// ```
public final class EncryptedFileStore: CredentialStore, ImmediateReads {
    /// Where the file is.
    public let url: URL
    /// How long a write waits for another writer's lock before `KeyringError.timedOut`.
    public let lockTimeout: Duration
    /// The Argon2id cost used when this store creates the file or changes its passphrase.
    public let keyDerivation: Argon2idParameters

    let paths: StorePaths
    let state: Mutex<FileStoreState>

    /// Opens the keyring file at `url`, creating it (and its folder) when it does not exist.
    ///
    /// A new folder is made with mode 0700 and a new file with mode 0600. Opening
    /// with a passphrase runs Argon2id once (0.15 to 0.3 s at the default cost); a
    /// raw key does not.
    /// - Parameters:
    ///   - url: the file; `EncryptedFileStore.defaultURL()` is the usual place.
    ///   - secret: the passphrase or key (see `FileStoreSecret.resolve`).
    ///   - createIfMissing: whether a missing file (and folder) is created; when `false` it is an error.
    ///   - lockTimeout: how long a write may wait for another writer.
    ///   - keyDerivation: the Argon2id cost for a new file and for `changePassphrase`;
    ///     an existing file keeps the cost written in it.
    /// - Throws: `KeyringError.wrongPassphrase` when the secret does not open the file;
    ///   `.damaged` when the file was changed, cut or has an unknown version (it is left as it is);
    ///   `.insecurePermissions` when the file or folder is open to others or belongs to another user;
    ///   `.serviceUnavailable(reason: .noKeyringFile)` when it is missing and `createIfMissing` is `false`
    ///   (`.noFolder` when its folder is missing too);
    ///   `.invalidConfiguration` for an empty passphrase, a key that is not 32 bytes, or bad `keyDerivation`;
    ///   `.timedOut` when creating the file waits too long for the lock.
    public convenience init(
        url: URL,
        secret: FileStoreSecret,
        createIfMissing: Bool = true,
        lockTimeout: Duration = .seconds(10),
        keyDerivation: Argon2idParameters = .recommended
    ) throws {
        do {
            try self.init(opening: url, try SecretMaterial(secret), createIfMissing, lockTimeout, keyDerivation)
        } catch let error as KeyringError {
            throw error.placed(in: .keyringFile)
        }
    }

    /// Opens or creates the file; the public init names the keyring file in the errors that pass out.
    init(
        opening url: URL,
        _ material: SecretMaterial,
        _ createIfMissing: Bool,
        _ lockTimeout: Duration,
        _ keyDerivation: Argon2idParameters
    ) throws {
        if let problem = keyDerivation.problem {
            throw KeyringError.invalidConfiguration(setting: "keyDerivation", reason: problem)
        }
        let paths = StorePaths(url)
        try FilePermissions.prepareFolder(paths.folder, create: createIfMissing)
        let initial = try KeyringError.translatingCrypto {
            if let existing = try FileStoreState.read(paths, material: material) {
                return existing
            } else if createIfMissing {
                return try Self.create(
                    paths, material: material, parameters: keyDerivation, call: .starting(timeout: lockTimeout))
            } else {
                throw KeyringError.serviceUnavailable(reason: .noKeyringFile(path: paths.file))
            }
        }
        self.url = URL(fileURLWithPath: paths.file)
        self.paths = paths
        self.lockTimeout = lockTimeout
        self.keyDerivation = keyDerivation
        self.state = Mutex(initial)
    }

    /// Writes an empty keyring, unless another process made one meanwhile, which is then opened.
    private static func create(
        _ paths: StorePaths, material: SecretMaterial, parameters: Argon2idParameters, call: StoreCall
    ) throws -> FileStoreState {
        // The KDF runs before taking the lock, so other writers do not wait for it.
        let (header, keys, master) = try material.newHeaderKeepingMaster(parameters: parameters)
        return try Self.withWriteLock(paths, call: call) {
            if let existing = try FileStoreState.read(paths, material: material) { return existing }
            var state = FileStoreState(material: material, header: header, keys: keys, master: master)
            var records = [RecordID: SealedRecord]()
            try state.write(&records, paths)
            return state
        }
    }

    /// `file`, with the file's path.
    public var identity: StoreIdentity {
        StoreIdentity(kind: .file, details: [StoreDetail("path", paths.file)])
    }

    /// `lockTimeout`: only a write waits, for another writer's lock.
    public var callTimeout: Duration { lockTimeout }

    /// The record under `id`, or `nil`; only this record's secret is decrypted. A read takes no lock, so it never waits.
    /// - Throws: `.damaged`, `.wrongPassphrase` or `.insecurePermissions` when another
    ///   process left a file this store cannot read.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        return try KeyringError.translatingCrypto {
            let found = try state.withLock { state in
                try state.refresh(paths)
                return state.records[id].map { ($0, state.keys, state.headerBytes) }
            }
            guard let (sealed, keys, header) = found else { return nil }
            return try RecordSealing.open(sealed, id: id, keys: keys, header: header)
        }
    }

    /// The record under `id` when the store's mutex is free and the file is the version
    /// in memory (one `lstat`); `.wouldWait` otherwise. For the async face.
    package func immediateRecord(for id: RecordID) throws -> ImmediateRead<StoredRecord?> {
        return try KeyringError.translatingCrypto {
            let found = try state.withLockIfAvailable { state -> ImmediateRead<(SealedRecord, SealingKeys, [UInt8])?> in
                guard let identity = state.identity, let info = try POSIX.lstatIfPresent(paths.file),
                    identity == FileIdentity(info)
                else { return .wouldWait }
                try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
                return .answered(state.records[id].map { ($0, state.keys, state.headerBytes) })
            }
            guard case .answered(let sealed)? = found else { return .wouldWait }
            guard let (sealed, keys, header) = sealed else { return .answered(nil) }
            return .answered(try RecordSealing.open(sealed, id: id, keys: keys, header: header))
        }
    }

    /// Stores `record`, replacing any record with the same identity, and writes the file.
    /// - Throws: `.timedOut` when another writer holds the lock past the call's deadline; the file is then unchanged.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        return try KeyringError.translatingCrypto {
            try modify(call) { records, keys, header in
                records[record.id] = try RecordSealing.seal(record, keys: keys, header: header)
                return ((), true)
            }
        }
    }

    /// Stores many records with one write of the file, for imports and migrations from another store:
    /// either all of them are stored or, when it throws, none.
    ///
    /// The records are read once, in order, and each is sealed straight into the
    /// file's bytes, so a lazy sequence (`(0..<n).lazy.map { … }`, or records read from
    /// another store as they come) is never held whole.
    public func save(contentsOf newRecords: some Sequence<StoredRecord>) throws {
        return try KeyringError.translatingCrypto {
            let call = StoreCall.starting(timeout: lockTimeout)
            try Self.withWriteLock(paths, call: call) {
                try call.checkCancellation()
                try state.withLock { state in
                    try state.refresh(paths)
                    try state.write(adding: newRecords, paths)
                }
            }
        }
    }

    /// Removes the record under `id`; `false` when there was none (the file is then not written).
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        return try KeyringError.translatingCrypto {
            try modify(call) { records, _, _ in
                let removed = records.removeValue(forKey: id) != nil
                return (removed, removed)
            }
        }
    }

    /// The records of `service` (and `kind`, when given), sorted by key; only their metadata is decrypted.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        return try KeyringError.translatingCrypto {
            let (matches, keys, header) = try state.withLock { state in
                try state.refresh(paths)
                // An array, not `Dictionary.filter`: a new dictionary of these types made the
                // runtime look up `RecordID: Hashable` by scanning every conformance record of
                // the binary (0.24M instructions, a git credential `get` pays it).
                var matches: [(RecordID, SealedRecord)] = []
                for (id, sealed) in state.records where id.service == service && (kind == nil || id.kind == kind) {
                    matches.append((id, sealed))
                }
                return (matches, state.keys, state.headerBytes)
            }
            let cipher = try AESGCM(key: keys.entry)
            return
                try matches
                .map { id, sealed in
                    RecordSummary(id: id, metadata: try RecordSealing.openMetadata(sealed, cipher: cipher, header: header))
                }
                .sorted { ($0.id.key, $0.id.kind.rawValue) < ($1.id.key, $1.id.kind.rawValue) }
        }
    }

    /// Removes the records of `service` (and `kind`, when given), and nothing else.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        return try KeyringError.translatingCrypto {
            try modify(call) { records, _, _ in
                let doomed = records.keys.filter { $0.service == service && (kind == nil || $0.kind == kind) }
                for id in doomed { records.removeValue(forKey: id) }
                return (doomed.count, !doomed.isEmpty)
            }
        }
    }

    /// Re-encrypts the whole file under `newSecret`, keeping every record.
    ///
    /// A passphrase gets a fresh salt and this store's `keyDerivation` cost. Other
    /// processes that have the file open get `KeyringError.wrongPassphrase` on their
    /// next call and must open it again with the new secret.
    /// - Throws: `.invalidRecord` for an unusable secret, `.timedOut` for the lock, or
    ///   what reading the current file throws; the file is then unchanged.
    public func changePassphrase(to newSecret: FileStoreSecret) throws {
        return try KeyringError.translatingCrypto {
            try KeyringError.placing(in: .keyringFile) { try replaceSecret(with: newSecret) }
        }
    }

    private func replaceSecret(with newSecret: FileStoreSecret) throws {
        let material = try SecretMaterial(newSecret)
        let (header, keys, master) = try material.newHeaderKeepingMaster(parameters: keyDerivation)
        try Self.withWriteLock(paths, call: .starting(timeout: lockTimeout)) {
            try state.withLock { state in
                try state.refresh(paths)
                var next = FileStoreState(material: material, header: header, keys: keys, master: master)
                var records = [RecordID: SealedRecord](minimumCapacity: state.records.count)
                for (id, sealed) in state.records {
                    let record = try RecordSealing.open(sealed, id: id, keys: state.keys, header: state.headerBytes)
                    records[id] = try RecordSealing.seal(record, keys: keys, header: next.headerBytes)
                }
                try next.write(&records, paths)
                // The old passphrase's key opens nothing now: no process of the session may keep using it.
                UnlockedKeyCache(state.header).drop()
                state = next
            }
        }
    }

    /// Runs a read-modify-write under the file lock and the store's mutex, on the
    /// current version of the file, and writes the result when `change` says so.
    ///
    /// A cancelled async call stops here at the latest: the lock may come free
    /// just after the task was cancelled, and nothing is written then.
    private func modify<Result>(
        _ call: StoreCall, _ change: (inout [RecordID: SealedRecord], SealingKeys, [UInt8]) throws -> (Result, Bool)
    ) throws -> Result {
        try Self.withWriteLock(paths, call: call) {
            try call.checkCancellation()
            return try state.withLock { state in
                try state.refresh(paths)
                var records = state.records
                let (result, changed) = try change(&records, state.keys, state.headerBytes)
                if changed { try state.write(&records, paths) }
                return result
            }
        }
    }

    /// Runs `body` holding the file's write lock (see `FileLock`), waiting for it until the call's deadline.
    private static func withWriteLock<Result>(_ paths: StorePaths, call: StoreCall, _ body: () throws -> Result) throws
        -> Result
    {
        try FileLock.withExclusiveLock(
            paths, call: call, operation: "a write to \(paths.file) while another writer held its lock", body
        )
    }
}
