import KeyringCrypto
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// What a ``LibsecretFileStore`` knows: how it keys the file (the password, or the key
/// unlocked in the session), the file's key, and the file version it last read or wrote,
/// every item authenticated and its attributes decrypted, its secret still sealed.
/// Only touched under the store's mutex.
struct LibsecretFileState: Sendable {
    /// Kept (the password in secure memory) so a file another writer gave a new salt can still be opened.
    var keying: LibsecretFileKeying
    var file: LibsecretKeyringFile
    /// PBKDF2's output for `file.salt` and `file.iterations`.
    var key: SecureBytes
    /// One per item of `file`, in the same order.
    var entries: [Entry]
    /// The version `file` came from; `nil` when there is no file yet.
    var identity: FileIdentity?
    /// Keeps that version's inode from being reused while it is compared against.
    var pinned: PinnedFile?

    /// An item's decrypted content, and the record it is when it is one of ours.
    struct Entry: Sendable {
        var content: LibsecretItemSealing.Content
        var summary: RecordSummary?
    }

    /// A state for a file not on disk yet: a fresh salt, and libsecret's iteration count unless a test asks for fewer.
    static func empty(password: SecureBytes, iterations: UInt32) throws -> LibsecretFileState {
        var file = LibsecretKeyringFile.new(
            salt: try PBKDF2.newSalt(length: LibsecretKeyringFile.saltLength), now: Self.now())
        file.iterations = iterations
        let key = try LibsecretItemSealing.key(password: password, salt: file.salt, iterations: file.iterations)
        return LibsecretFileState(
            keying: .password(password), file: file, key: key, entries: [], identity: nil, pinned: nil)
    }

    /// Reads the file at `paths.file`, or returns `nil` when there is none.
    /// - Throws: `.insecurePermissions`, `.damaged`, `.wrongPassphrase`, or `.backend`; the file is never changed.
    static func read(_ paths: StorePaths, keying: LibsecretFileKeying) throws -> LibsecretFileState? {
        // Opened without waiting: a FIFO in the file's place is refused, never waited on.
        guard let (descriptor, _) = try POSIX.openRegularFileIfPresent(paths.file) else { return nil }
        return try load(PinnedFile(descriptor), paths, keying: keying, known: nil)
    }

    /// The file at `paths.file` as bytes, its items still sealed (no key needed: its salt and
    /// iteration count are plain), or `nil` when there is none.
    /// - Throws: `.insecurePermissions`, `.damaged`, or `.backend`.
    static func plainFile(_ paths: StorePaths) throws -> LibsecretKeyringFile? {
        guard let (descriptor, _) = try POSIX.openRegularFileIfPresent(paths.file) else { return nil }
        return try decode(PinnedFile(descriptor), paths).0
    }

    /// Brings the state up to date with the file on disk: a `stat` when nothing changed,
    /// a full read when another writer (ours or libsecret) made a new version. A file that
    /// has gone is an empty keyring with the same salt and key; the next write makes it again.
    /// - Throws: when the new version cannot be read; the state is then left as it was.
    mutating func refresh(_ paths: StorePaths) throws {
        guard let info = try POSIX.lstatIfPresent(paths.file) else {
            file.items = []
            entries = []
            identity = nil
            pinned = nil
            return
        }
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        if let identity, identity == FileIdentity(info) { return }
        guard let (descriptor, _) = try POSIX.openRegularFileIfPresent(paths.file) else {
            return try refresh(paths)
        }
        self = try Self.load(PinnedFile(descriptor), paths, keying: keying, known: self)
    }

    /// Reads, authenticates and decrypts the version behind `pinned`.
    /// - Parameter known: the version read before: its key is reused when the salt and iteration
    ///   count are the same, and then so is every item whose bytes are unchanged, so a rewrite by
    ///   another writer costs the items it added, not every item.
    private static func load(
        _ pinned: PinnedFile, _ paths: StorePaths, keying: LibsecretFileKeying, known: LibsecretFileState?
    ) throws -> LibsecretFileState {
        let (file, info) = try decode(pinned, paths)
        if let known, known.file.salt == file.salt, known.file.iterations == file.iterations {
            // Keyed by each blob's MAC; an item is reused only when all its bytes are the same.
            var opened: [[UInt8]: (LibsecretKeyringFile.Item, Entry)] = [:]
            for (item, entry) in zip(known.file.items, known.entries) {
                opened[Array(item.blob.suffix(LibsecretItemSealing.macLength))] = (item, entry)
            }
            let entries = try KeyringError.translatingCrypto { try openAll(file, key: known.key, known: opened, paths) }
            return LibsecretFileState(
                keying: keying, file: file, key: known.key, entries: entries, identity: FileIdentity(info), pinned: pinned)
        }
        let password: SecureBytes
        switch keying {
        case .password(let known):
            password = known
        case .unlockedOrElse(let fallback):
            let cache = file.unlockedKeyCache
            if let kept = cache.find() {
                // The name holds the salt and the iteration count, so this key was made for this
                // file; it still has to open the items. A file with no item opens under any key,
                // as libsecret takes any password for it: the key is used then, since `unlock`
                // keeps one only after it opened the file's items (see `LibsecretFileStore.unlock`),
                // and a write with it seals the new items under the key every item of this salt had.
                do {
                    let entries = try KeyringError.translatingCrypto { try openAll(file, key: kept.key, known: [:], paths) }
                    return LibsecretFileState(
                        keying: keying, file: file, key: kept.key, entries: entries, identity: FileIdentity(info),
                        pinned: pinned)
                } catch KeyringError.wrongPassphrase {
                    // A key that opens none of the items (the file re-made with the same salt, a
                    // planted key): never used, never written with; the usual sources are asked.
                    cache.drop()
                }
            }
            password = try fallback()
        }
        let key = try KeyringError.translatingCrypto {
            try LibsecretItemSealing.key(password: password, salt: file.salt, iterations: file.iterations)
        }
        let entries = try KeyringError.translatingCrypto { try openAll(file, key: key, known: [:], paths) }
        return LibsecretFileState(
            keying: .password(password), file: file, key: key, entries: entries, identity: FileIdentity(info), pinned: pinned)
    }

    /// Reads and decodes the version behind `pinned`, checking its permissions and bounds; no key is needed.
    private static func decode(_ pinned: PinnedFile, _ paths: StorePaths) throws -> (LibsecretKeyringFile, stat) {
        let info = try POSIX.fstat(pinned.descriptor, path: paths.file)
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        let size = Int(info.st_size)
        guard size <= LibsecretKeyringFile.maximumBytes else {
            throw damaged(paths, "it is \(size) bytes, more than the \(LibsecretKeyringFile.maximumBytes) read")
        }
        // One byte more than the size, so a file written in place while read is noticed rather than cut.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        let count = try bytes.withUnsafeMutableBytes { try POSIX.read(pinned.descriptor, into: $0, path: paths.file) }
        guard count == size else { throw damaged(paths, "it changed size while it was read") }
        bytes.removeLast()
        do {
            return (try LibsecretKeyringFile.decode(bytes), info)
        } catch let error as GVariantDecoder.Malformed {
            throw damaged(paths, error.reason)
        }
    }

    /// Every item authenticated and decrypted, its plaintext attribute hashes checked against its content.
    ///
    /// The format has no key check, so a key that authenticates none of the items is
    /// taken for a wrong password (or a changed salt or iteration count, which look the
    /// same); a key that authenticates some but not all means changed bytes.
    private static func openAll(
        _ file: LibsecretKeyringFile, key: SecureBytes, known: [[UInt8]: (LibsecretKeyringFile.Item, Entry)],
        _ paths: StorePaths
    ) throws -> [Entry] {
        let sealing = LibsecretItemSealing(key: key)
        var entries: [Entry] = []
        entries.reserveCapacity(file.items.count)
        var unauthenticated: [Int] = []
        for (index, item) in file.items.enumerated() {
            if let (knownItem, entry) = known[Array(item.blob.suffix(LibsecretItemSealing.macLength))], knownItem == item {
                entries.append(entry)
                continue
            }
            let content: LibsecretItemSealing.Content
            do {
                content = try sealing.open(item.blob, withSecret: false).0
            } catch LibsecretItemSealing.Failure.unauthenticated {
                unauthenticated.append(index)
                continue
            } catch LibsecretItemSealing.Failure.malformed(let reason) {
                throw damaged(paths, "item \(index): \(reason)")
            }
            // The names and hashes outside the blob are not covered by its MAC: they must be the blob's own.
            let expected = try sealing.hashedAttributes(content.attributes)
            guard
                expected.elementsEqual(item.hashedAttributes, by: { $0.name == $1.name && ConstantTime.equal($0.mac, $1.mac) })
            else {
                throw damaged(paths, "item \(index): its plaintext attribute names or hashes are not those sealed in it")
            }
            entries.append(Entry(content: content, summary: SecretAttributes.summary(from: content.attributes)))
        }
        if !unauthenticated.isEmpty {
            if unauthenticated.count == file.items.count { throw KeyringError.wrongPassphrase }
            throw damaged(
                paths,
                "\(unauthenticated.count == 1 ? "item \(unauthenticated[0])" : "items \(Self.listed(unauthenticated))") "
                    + "(of \(file.items.count) items in the file) \(unauthenticated.count == 1 ? "does" : "do") not authenticate "
                    + "under the key that opens the others"
            )
        }
        return entries
    }

    /// `3, 7, 49`, or the first ten and how many more.
    private static func listed(_ indexes: [Int]) -> String {
        let shown = indexes.prefix(10).map(String.init).joined(separator: ", ")
        return indexes.count > 10 ? "\(shown) and \(indexes.count - 10) more" : shown
    }

    /// Writes `next` (with `nextEntries`, one per item) as the new version of the file, and
    /// makes it the state. The caller holds the file lock and has refreshed first; when this
    /// throws, nothing changed, on disk or here.
    /// - Throws: ``ChangedMeanwhile`` when a writer that takes no lock (libsecret) replaced the file
    ///   after it was read: the caller reads it again and redoes its change, so that write is kept.
    mutating func write(_ next: LibsecretKeyringFile, entries nextEntries: [Entry], _ paths: StorePaths) throws {
        var next = next
        next.modified = Self.now()
        next.usageCount &+= 1
        let read = identity
        let pinned = try AtomicFileWriter.replace(paths, with: next.encoded()) {
            Self.beforeRenameHooks.withLock { $0[paths.file] }?()
            let now = try POSIX.lstatIfPresent(paths.file).map(FileIdentity.init)
            guard now == read else { throw ChangedMeanwhile() }
        }
        identity = FileIdentity(try POSIX.fstat(pinned.descriptor, path: paths.file))
        self.pinned = pinned
        file = next
        entries = nextEntries
    }

    /// The file was replaced, outside our lock, between our reading it and our rename.
    struct ChangedMeanwhile: Error {}

    /// What runs just before each check that the file at a path is still the version read: a test
    /// stands in for libsecret there, replacing the file at the worst moment. Empty outside those tests.
    static let beforeRenameHooks = Mutex<[String: @Sendable () -> Void]>([:])

    /// The first item that holds `id`: reads and writes pick the same one among duplicates.
    func index(of id: RecordID) -> Int? {
        entries.firstIndex { $0.summary?.id == id }
    }

    /// Seconds since 1970, as libsecret keeps times.
    static func now() -> UInt64 {
        UInt64(max(0, time(nil)))
    }

    private static func damaged(_ paths: StorePaths, _ reason: String) -> KeyringError {
        KeyringError.damaged(reason: "\(paths.file): \(reason)")
    }
}
