import KeyringCrypto
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A store that keeps records in libsecret's own keyring file: the file a Flatpak or Snap
/// app's libsecret (and oo7) keeps at `$XDG_DATA_HOME/keyrings/default.keyring`, and
/// `secret-tool` writes with `SECRET_BACKEND=file`.
///
/// Each record is one item with the attributes it has on the Secret Service (`tag`,
/// `service`, `key`, `kind`, `username`, `url`, `sync`, `background-access`, and
/// `xdg:schema`), and the same label, so libsecret and `secret-tool` find it; items other
/// programs wrote are read, listed by nobody, and kept as they are on every rewrite.
/// The format is in `docs/LIBSECRET_FILE_FORMAT.md`: attribute names are in plain text
/// (values are hashed), everything else is encrypted under a key PBKDF2 derives from
/// the password (see ``LibsecretFileKey``).
///
/// Writes are atomic and durable (temporary file, fsync, rename, fsync of the folder) and
/// serialised between this library's writers, in any process, by a lock file beside the
/// file. libsecret takes no lock: it replaces the whole file only if it has not changed since
/// it read it, checked when it starts writing, so a write of ours before that makes libsecret's
/// write fail, but a write of ours that lands while libsecret is writing is lost. This store
/// checks just before its own rename that libsecret did not replace the file meanwhile, and
/// redoes its write on libsecret's version when it did. Do not let a libsecret process and this
/// store write one file at the same moment (`docs/LIBSECRET_FILE_FORMAT.md` says more).
///
/// ```swift
/// let store = try LibsecretFileStore(url: LibsecretFileStore.defaultURL(), key: try LibsecretFileKey.resolve())
/// let keyring = try Keyring(service: "com.example.mail", store: store)
/// ```
public final class LibsecretFileStore: CredentialStore {
    /// Where the file is.
    public let url: URL
    /// How long a write waits for another writer's lock before `KeyringError.timedOut`.
    public let lockTimeout: Duration

    let paths: StorePaths
    let state: Mutex<LibsecretFileState>
    /// Whether the password is the Secret portal's, which no person types: nothing to unlock then.
    let keyedByPortal: Bool

    /// Opens libsecret's keyring file at `url`; a missing file is an empty keyring, written on the first change.
    ///
    /// A missing folder is made with mode 0700 and the file with mode 0600. Opening runs
    /// PBKDF2 once (100,000 rounds, about 30 ms) and decrypts every item's attributes.
    /// - Parameters:
    ///   - url: the file; ``defaultURL(environment:)`` is libsecret's own place.
    ///   - key: where the password comes from.
    ///   - createIfMissing: whether a missing folder is made and a missing file allowed; when `false` they are errors.
    ///   - lockTimeout: how long a write may wait for another writer.
    /// - Throws: `KeyringError.wrongPassphrase` when the password opens none of the items;
    ///   `.damaged` when the file was changed or cut, is not libsecret's format (gnome-keyring's own
    ///   files are refused this way), or has a PBKDF2 iteration count or salt outside the bounds;
    ///   `.insecurePermissions` when the file or folder is open to others or belongs to another user;
    ///   `.serviceUnavailable(reason: .noKeyringFile)` when it is missing and `createIfMissing` is `false`;
    ///   `.invalidConfiguration` when the key cannot be read.
    public convenience init(
        url: URL, key: LibsecretFileKey, createIfMissing: Bool = true, lockTimeout: Duration = .seconds(10)
    ) throws {
        let password = try KeyringError.placing(in: .libsecretFile) { try key.password() }
        try self.init(
            url: url, password: password, createIfMissing: createIfMissing, lockTimeout: lockTimeout,
            keyedByPortal: key == .portal)
    }

    /// Opens the file with a key source; for tests, with the PBKDF2 cost of a file this store makes.
    package convenience init(url: URL, key: LibsecretFileKey, newFileIterations: UInt32) throws {
        let password = try KeyringError.placing(in: .libsecretFile) { try key.password() }
        try self.init(url: url, password: password, newFileIterations: newFileIterations)
    }

    /// Opens the file with the password's bytes themselves, for a key source that holds them
    /// already (the Secret portal's).
    /// - Parameter newFileIterations: the PBKDF2 cost of a file this store makes; libsecret's
    ///   unless a test that opens files thousands of times asks for the lowest cost read.
    package convenience init(
        url: URL, password: SecureBytes, createIfMissing: Bool = true, lockTimeout: Duration = .seconds(10),
        newFileIterations: UInt32 = 100_000, keyedByPortal: Bool = false
    ) throws {
        try self.init(
            url: url, keying: .password(try Self.checked(password)), createIfMissing: createIfMissing,
            lockTimeout: lockTimeout, newFileIterations: newFileIterations, keyedByPortal: keyedByPortal)
    }

    /// Opens the file with the key `unlock(for:)` kept for it in the login session, skipping
    /// PBKDF2 and the password, or with the password `fallback` finds (the usual sources) when
    /// none is kept, it was kept for another file, or it opens none of the file's items (it is
    /// then dropped, and nothing is written with it).
    /// - Throws: what `init(url:key:)` throws, and what `fallback` throws when it is asked.
    package convenience init(
        url: URL, unlockedOrElse fallback: @escaping @Sendable () throws -> SecureBytes, lockTimeout: Duration
    ) throws {
        try self.init(
            url: url, keying: .unlockedOrElse(fallback: { try Self.checked(fallback()) }), createIfMissing: true,
            lockTimeout: lockTimeout, newFileIterations: LibsecretKeyringFile.defaultIterations, keyedByPortal: false)
    }

    private init(
        url: URL, keying: LibsecretFileKeying, createIfMissing: Bool, lockTimeout: Duration, newFileIterations: UInt32,
        keyedByPortal: Bool
    ) throws {
        let paths = StorePaths(url)
        let initial = try KeyringError.placing(in: .libsecretFile) {
            try KeyringError.translatingCrypto {
                try LibsecretFolderMode.closeIfOnlyReadable(paths.folder)
                try FilePermissions.prepareFolder(paths.folder, create: createIfMissing)
                if let existing = try LibsecretFileState.read(paths, keying: keying) {
                    return existing
                }
                guard createIfMissing else {
                    throw KeyringError.serviceUnavailable(reason: .noKeyringFile(path: paths.file))
                }
                // No file, so no key was kept for it: a new file's salt is new.
                let password: SecureBytes
                switch keying {
                case .password(let given): password = given
                case .unlockedOrElse(let fallback): password = try fallback()
                }
                return try LibsecretFileState.empty(password: password, iterations: newFileIterations)
            }
        }
        self.url = URL(fileURLWithPath: paths.file)
        self.paths = paths
        self.lockTimeout = lockTimeout
        self.keyedByPortal = keyedByPortal
        self.state = Mutex(initial)
    }

    /// `password`, refused when empty.
    private static func checked(_ password: SecureBytes) throws -> SecureBytes {
        guard password.count > 0 else {
            throw KeyringError.invalidConfiguration(setting: "password", reason: "must not be empty")
                .placed(in: .libsecretFile)
        }
        return password
    }

    /// `libsecret-file`, with the file's path.
    public var identity: StoreIdentity {
        StoreIdentity(kind: .libsecretFile, details: [StoreDetail("path", paths.file)])
    }

    /// `lockTimeout`: only a write waits, for another writer's lock.
    public var callTimeout: Duration { lockTimeout }

    /// The record under `id`, or `nil`; only this item's secret is decrypted. A read takes no lock.
    /// - Throws: `.damaged`, `.wrongPassphrase` or `.insecurePermissions` when another writer left a file this store cannot read.
    public func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        try guarded {
            let found = try state.withLock { state -> (LibsecretKeyringFile.Item, RecordSummary, SecureBytes)? in
                try state.refresh(paths)
                guard let index = state.index(of: id), let summary = state.entries[index].summary else { return nil }
                return (state.file.items[index], summary, state.key)
            }
            guard let (item, summary, key) = found else { return nil }
            let secret: [UInt8]?
            do {
                secret = try LibsecretItemSealing(key: key).open(item.blob, withSecret: true).1
            } catch is LibsecretItemSealing.Failure {
                throw KeyringError.damaged(reason: "\(paths.file): the item of \(id) no longer opens")
            }
            return StoredRecord(id: id, metadata: summary.metadata, secret: secret ?? [])
        }
    }

    /// Stores `record` as one item, replacing every item that held its identity, and writes the file.
    /// - Throws: `.timedOut` when another writer holds the lock past the call's deadline; the file is then unchanged.
    public func save(_ record: StoredRecord, call: StoreCall) throws {
        try modify(call) { file, entries, key in
            let now = LibsecretFileState.now()
            let existing = entries.firstIndex { $0.summary?.id == record.id }
            var attributes = Dictionary(SecretAttributes.allValues(record), uniquingKeysWith: { $1 })
            attributes["xdg:schema"] = SecretAttributes.schemaName
            let content = LibsecretItemSealing.Content(
                attributes: attributes, label: SecretLabel.label(for: record),
                created: existing.map { entries[$0].content.created } ?? now, modified: now)
            let sealing = LibsecretItemSealing(key: key)
            let item = LibsecretKeyringFile.Item(
                hashedAttributes: try sealing.hashedAttributes(attributes),
                blob: try sealing.seal(content, secret: record.secret))
            let entry = LibsecretFileState.Entry(
                content: content, summary: RecordSummary(id: record.id, metadata: record.metadata))
            // The new item takes the first duplicate's place; the others go, so exactly one holds the record.
            let position = existing ?? file.items.count
            Self.remove(from: &file, &entries) { $0.summary?.id == record.id }
            file.items.insert(item, at: min(position, file.items.count))
            entries.insert(entry, at: min(position, entries.count))
            return ((), true)
        }
    }

    /// Removes every item that holds `id`; `false` when there was none (the file is then not written).
    @discardableResult
    public func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        try modify(call) { file, entries, _ in
            let removed = Self.remove(from: &file, &entries) { $0.summary?.id == id }
            return (removed > 0, removed > 0)
        }
    }

    /// The records of `service` (and `kind`, when given), sorted by key; no secret is decrypted.
    public func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        try guarded {
            let summaries = try state.withLock { state in
                try state.refresh(paths)
                return state.entries.compactMap(\.summary)
            }
            var seen = Set<RecordID>()
            return
                summaries
                .filter { $0.id.service.utf8.elementsEqual(service.utf8) && (kind == nil || $0.id.kind == kind) }
                .filter { seen.insert($0.id).inserted }
                .sorted { ($0.id.key, $0.id.kind.rawValue) < ($1.id.key, $1.id.kind.rawValue) }
        }
    }

    /// Removes the records of `service` (and `kind`, when given), and nothing else.
    @discardableResult
    public func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        try modify(call) { file, entries, _ in
            let doomed = Set(
                entries.compactMap(\.summary?.id).filter {
                    $0.service.utf8.elementsEqual(service.utf8) && (kind == nil || $0.kind == kind)
                })
            Self.remove(from: &file, &entries) { $0.summary.map { doomed.contains($0.id) } ?? false }
            return (doomed.count, !doomed.isEmpty)
        }
    }

    /// Every item's attributes and label, ours and others', in file order; no secret.
    /// For tests and diagnostics.
    package func items() throws -> [(attributes: [String: String], label: String)] {
        try guarded {
            try state.withLock { state in
                try state.refresh(paths)
                return state.entries.map { ($0.content.attributes, $0.content.label) }
            }
        }
    }

    /// Removes the items whose entry matches; returns how many.
    @discardableResult
    private static func remove(
        from file: inout LibsecretKeyringFile, _ entries: inout [LibsecretFileState.Entry],
        where matches: (LibsecretFileState.Entry) -> Bool
    ) -> Int {
        let doomed = entries.indices.filter { matches(entries[$0]) }
        for index in doomed.reversed() {
            file.items.remove(at: index)
            entries.remove(at: index)
        }
        return doomed.count
    }

    /// Runs a read-modify-write under the file lock and the store's mutex, on the current
    /// version of the file, and writes the result when `change` says so.
    ///
    /// libsecret replaces the file without our lock; when it did so while we wrote, the write
    /// is dropped before its rename and done again on the new version, a few times at most.
    private func modify<Result>(
        _ call: StoreCall,
        _ change: (inout LibsecretKeyringFile, inout [LibsecretFileState.Entry], SecureBytes) throws -> (Result, Bool)
    ) throws -> Result {
        try guarded {
            try FileLock.withExclusiveLock(
                paths, call: call, operation: "a write to \(paths.file) while another writer held its lock"
            ) {
                var attempts = 0
                while true {
                    try call.checkCancellation()
                    do {
                        return try state.withLock { state in
                            try state.refresh(paths)
                            var file = state.file
                            var entries = state.entries
                            let (result, changed) = try change(&file, &entries, state.key)
                            if changed { try state.write(file, entries: entries, paths) }
                            return result
                        }
                    } catch is LibsecretFileState.ChangedMeanwhile where attempts < Self.maximumRetries {
                        attempts += 1
                    } catch is LibsecretFileState.ChangedMeanwhile {
                        throw call.deadline.timedOut(
                            "a write to \(paths.file) that another program replaced \(attempts + 1) times meanwhile")
                    }
                }
            }
        }
    }

    /// How often a write is redone because libsecret replaced the file meanwhile.
    private static let maximumRetries = 5

    /// Names this store in the errors that leave it, and turns the crypto layer's errors into keyring errors.
    private func guarded<Result>(_ body: () throws -> Result) throws -> Result {
        try KeyringError.placing(in: .libsecretFile) { try KeyringError.translatingCrypto(body) }
    }
}
