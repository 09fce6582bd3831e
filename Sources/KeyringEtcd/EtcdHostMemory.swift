import KeyringCrypto
import SwiftKeyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// What this host has seen of the etcd keyrings it opened, kept in `seen.json` (mode 0600, in a
/// 0700 folder, by default `$XDG_STATE_HOME/swift-keyring/+etcd`), so a cluster that hands back
/// older data than it already gave is caught:
///
/// - the keyring's sealing header as first opened (its public part: format, Argon2id cost, salt),
///   so a header changed afterwards is refused before any key is derived from it;
/// - per record, the highest version seen (read, listed or written here), or the revision at which
///   this host saw it removed, so an older value, or a removed record coming back, is refused.
///
/// Keyrings are told apart by the cluster's ID and the prefix; records by the keyed hash that ends
/// their etcd key, so the file holds no name. It follows the rules of the package's other private
/// files (`POSIX`, `FilePermissions`, `FileLock`, `AtomicFileWriter`): readers take no lock, writers
/// hold the lock while they read, merge and write, so processes on one host keep each other's marks.
final class EtcdHostMemory: Sendable {
    /// One record's mark: the highest version seen, or the revision it was seen removed at.
    struct Mark: Codable, Equatable, Sendable {
        var version: UInt64
        var removed: Bool

        /// The newer of two marks; on a tie, `self`, so a removal is not undone by a value of its own age.
        func merged(with other: Mark) -> Mark {
            other.version > version ? other : self
        }
    }

    /// One keyring as this host saw it.
    struct Seen: Codable, Equatable, Sendable {
        /// The header's public part (`KeyedHeader.checkedLength` bytes: no key check), base64.
        var header: String?
        var records: [String: Mark] = [:]
    }

    private struct Document: Codable {
        var format: Int
        var keyrings: [String: Seen]
    }

    /// The version of the file last read or written, and its content: a read that finds the file
    /// unchanged (device, inode, size, modification time) parses nothing. The version is kept
    /// open, so its inode cannot be reused by a later one while it is compared against.
    private struct Cached: Sendable {
        var identity: [Int]
        var pinned: PinnedFile
        var document: Document
    }

    private let cache = Mutex<Cached?>(nil)

    static let format = 1
    /// How many leading header bytes are remembered: magic, version, key source, cipher, Argon2id cost, salt.
    static let headerPrefix = 56

    private let paths: StorePaths
    /// `<cluster ID> <prefix>`.
    let keyring: String
    var path: String { paths.file }

    init(folder: String, cluster: String, prefix: String) {
        paths = StorePaths(file: PathName.join(folder, "seen.json"), lockName: "seen.lock")
        keyring = "\(cluster) \(prefix)"
    }

    /// What this host has recorded of the keyring; empty when nothing yet.
    /// - Throws: `.damaged` naming the file when it is not one of ours, `.insecurePermissions`
    ///   when it or its folder is open to others, `.backend` when it cannot be read.
    func read() throws -> Seen {
        try readDocument().keyrings[keyring] ?? Seen()
    }

    /// Applies `change` to the keyring's record under the lock, writing only when it changed.
    /// - Parameter call: the store call this is part of: the lock is waited for until its deadline.
    func update(call: StoreCall, _ change: (inout Seen) throws -> Void) throws {
        try FilePermissions.prepareFolder(paths.folder, create: true)
        try FileLock.withExclusiveLock(paths, call: call, operation: "locking \(paths.lock)") {
            var document = try readDocument()
            let before = document.keyrings[keyring] ?? Seen()
            var after = before
            try change(&after)
            guard after != before else { return }
            document.keyrings[keyring] = after
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let pinned = try AtomicFileWriter.replace(paths, with: Array(try encoder.encode(document)))
            let written = try POSIX.fstat(pinned.descriptor, path: paths.file)
            cache.withLock { $0 = Cached(identity: Self.identity(written), pinned: pinned, document: document) }
        }
    }

    /// Merges `marks` (by record hash) into what is recorded; never lowers a mark.
    func record(_ marks: [String: Mark], call: StoreCall) throws {
        guard !marks.isEmpty else { return }
        try update(call: call) { seen in
            for (record, mark) in marks {
                seen.records[record] = seen.records[record].map { $0.merged(with: mark) } ?? mark
            }
        }
    }

    private func readDocument() throws -> Document {
        let empty = Document(format: Self.format, keyrings: [:])
        guard let folder = try POSIX.statIfPresent(paths.folder) else { return empty }
        try FilePermissions.require(paths.folder, FilePermissions.folderProblem(folder))
        // Checked on every read, as chmod and chown make no new version.
        guard let info = try POSIX.lstatIfPresent(paths.file) else { return empty }
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        if let cached = cache.withLock({ $0 }), cached.identity == Self.identity(info) { return cached.document }
        guard let (descriptor, opened) = try POSIX.openRegularFileIfPresent(paths.file) else { return empty }
        let pinned = PinnedFile(descriptor)
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(opened))
        let content = try POSIX.readAll(descriptor, path: paths.file, sizeHint: Int(opened.st_size))
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(content)) else {
            throw KeyringError.damaged(reason: "this host's etcd memory \(paths.file) is not valid JSON of the expected shape")
        }
        guard document.format == Self.format else {
            throw KeyringError.damaged(
                reason: "this host's etcd memory \(paths.file) has format \(document.format), which this version cannot read")
        }
        cache.withLock { $0 = Cached(identity: Self.identity(opened), pinned: pinned, document: document) }
        return document
    }

    /// Device, inode, size and modification time.
    private static func identity(_ info: stat) -> [Int] {
        [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }
}

extension EtcdHostMemory.Seen {
    /// Throws unless a value at `version` of `record` may be trusted after what was recorded here.
    /// - Parameter name: the record as the error names it.
    /// - Throws: `.damaged` saying the cluster went backwards: an older version than seen, or a
    ///   version at or before the revision this host saw the record removed at.
    func check(_ record: String, version: UInt64, name: @autoclosure () -> String, cluster: String) throws {
        guard let mark = records[record] else { return }
        if mark.removed, version <= mark.version {
            throw KeyringError.damaged(
                reason: "etcd (\(cluster)) handed back version \(version) of \(name()), a value from before this host "
                    + "saw the record removed (at revision \(mark.version)); the value was refused")
        }
        if !mark.removed, version < mark.version {
            throw KeyringError.damaged(
                reason: "etcd (\(cluster)) handed back version \(version) of \(name()), older than version \(mark.version) "
                    + "that this host has already seen (a rollback or a replay); the value was refused")
        }
    }
}
