import KeyringCrypto
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Which keys of a two-store keyring may have a copy in the shared store, kept on this machine,
/// so that a device-only `set` asks the shared store nothing unless a copy may be there.
///
/// A key is marked, durably, before a record is written to the shared store (so a crash
/// between a move's two steps always leaves a mark behind), and when a read finds it there;
/// the mark goes once the shared store has answered that it holds no copy. A mark only ever
/// costs a round trip: one left over after the copy is gone is harmless, and the keyring
/// removes it at the next `set` or `remove` of its key.
///
/// By default the marks live in `$XDG_STATE_HOME/swift-keyring/shared-copies` (a 0700 folder):
/// one empty file a key, named by an HMAC-SHA256 of the service and key under a random key kept
/// beside them, so the folder shows no record's name. A host that never wrote a mark pays one
/// failed `open` a device-only `set`.
public struct SharedCopyMarks: Sendable {
    private let storage: Storage

    private enum Storage: Sendable {
        case folder(FolderMarks)
        case memory(MemoryMarks)
    }

    /// Marks kept in `folder`, made (0700) when the first mark is written.
    /// - Parameter folder: where the marks live; several keyrings and processes of one user may share it.
    public init(folder: URL) {
        storage = .folder(FolderMarks(folder: PathName.path(of: folder)))
    }

    /// Marks kept in this process only, for tests and previews whose stores are memory stores too.
    public static func inMemory() -> SharedCopyMarks {
        SharedCopyMarks(storage: .memory(MemoryMarks()))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// `$XDG_STATE_HOME/swift-keyring/shared-copies` (`~/.local/state/swift-keyring/shared-copies`).
    /// - Parameter environment: where `XDG_STATE_HOME` and `HOME` are read.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: XDGBaseDirectory.state.path(environment: environment) + "/swift-keyring/shared-copies")
    }

    /// Whether `id` may have a copy in the shared store. A mark that cannot be read counts as
    /// there: the cost of a wrong "yes" is one round trip, of a wrong "no" a copy left behind.
    func mayHaveCopy(_ id: RecordID) -> Bool {
        switch storage {
        case .folder(let marks): return (try? marks.contains(id)) ?? true
        case .memory(let marks): return marks.names.withLock { $0.contains(MemoryMarks.name(id)) }
        }
    }

    /// Marks `id`; with `durably`, the mark is on disk when this returns, as a move's first step needs.
    /// - Throws: the folder's errors (`.insecurePermissions`, `.backend`), so a move does not start unmarked.
    func mark(_ id: RecordID, durably: Bool) throws {
        switch storage {
        case .folder(let marks): try marks.mark(id, durably: durably)
        case .memory(let marks): _ = marks.names.withLock { $0.insert(MemoryMarks.name(id)) }
        }
    }

    /// Removes `id`'s mark, once the shared store said it holds no copy; a mark that stays costs a round trip, no more.
    func unmark(_ id: RecordID) {
        switch storage {
        case .folder(let marks): try? marks.unmark(id)
        case .memory(let marks): _ = marks.names.withLock { $0.remove(MemoryMarks.name(id)) }
        }
    }

    /// Removes every mark of `service`, once the shared store holds none of its records.
    func unmarkAll(service: String) {
        switch storage {
        case .folder(let marks): try? marks.unmarkAll(service: service)
        case .memory(let marks): marks.names.withLock { $0 = $0.filter { $0.first != service } }
        }
    }
}

/// The in-memory marks: service, kind and key, byte for byte.
private final class MemoryMarks: Sendable {
    let names = Mutex<Set<[String]>>([])

    static func name(_ id: RecordID) -> [String] {
        // Compared as bytes: two spellings of "é" are two keys, as in the stores.
        [id.service, id.kind.rawValue, id.key.utf8.map { String($0) }.joined(separator: ",")]
    }
}

/// The marks in a folder: `key` (32 random bytes, 0600) and one empty file a marked key, named
/// `<HMAC of the service>-<HMAC of the service, kind and key>` (32 hex digits each).
private final class FolderMarks: Sendable {
    let folder: String
    /// The naming key, once read or made.
    private let namingKey = Mutex<[UInt8]?>(nil)

    init(folder: String) {
        self.folder = folder
    }

    private var keyPath: String { PathName.join(folder, "key") }

    func contains(_ id: RecordID) throws -> Bool {
        // No naming key: no mark was ever written here.
        guard let key = try existingKey() else { return false }
        return try POSIX.lstatIfPresent(PathName.join(folder, try name(id, key: key))) != nil
    }

    func mark(_ id: RecordID, durably: Bool) throws {
        let key = try existingKey() ?? makeKey()
        let path = PathName.join(folder, try name(id, key: key))
        let descriptor = try POSIX.open(path, O_WRONLY | O_CREAT, mode: FilePermissions.fileMode)
        close(descriptor)
        if durably { try POSIX.fsyncFolder(folder) }
    }

    func unmark(_ id: RecordID) throws {
        guard let key = try existingKey() else { return }
        try POSIX.unlinkIfPresent(PathName.join(folder, try name(id, key: key)))
    }

    func unmarkAll(service: String) throws {
        guard let key = try existingKey() else { return }
        let prefix = try hex(key, [Array(service.utf8)]) + "-"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasPrefix(prefix) {
            try POSIX.unlinkIfPresent(PathName.join(folder, name))
        }
    }

    private func name(_ id: RecordID, key: [UInt8]) throws -> String {
        try hex(key, [Array(id.service.utf8)]) + "-"
            + hex(key, [Array(id.service.utf8), Array(id.kind.rawValue.utf8), Array(id.key.utf8)])
    }

    /// The first 16 bytes of the HMAC of `parts`, each preceded by its length so no two lists share an input.
    private func hex(_ key: [UInt8], _ parts: [[UInt8]]) throws -> String {
        let tag = try KeyringError.translatingCrypto {
            let mac = try HMACSHA256(key: key)
            for part in parts {
                try mac.update(withUnsafeBytes(of: UInt64(part.count).bigEndian) { Array($0) })
                try mac.update(part)
            }
            return try mac.finish()
        }
        return tag.prefix(16).lowercaseHex
    }

    private func existingKey() throws -> [UInt8]? {
        if let key = namingKey.withLock({ $0 }) { return key }
        guard let opened = try POSIX.openRegularFileIfPresent(keyPath) else { return nil }
        defer { close(opened.descriptor) }
        try FilePermissions.require(keyPath, FilePermissions.fileProblem(opened.info))
        let key = try POSIX.readAll(opened.descriptor, path: keyPath, sizeHint: 32)
        guard key.count == 32 else {
            throw KeyringError.damaged(reason: "\(keyPath) is not a naming key of the shared-copy marks (32 bytes)")
        }
        namingKey.withLock { $0 = key }
        return key
    }

    /// Makes the naming key: written whole to a file of this process, then linked into place, so
    /// another process never reads half a key, and of two racing processes one key wins.
    private func makeKey() throws -> [UInt8] {
        try FilePermissions.prepareFolder(folder, create: true)
        // The standard library's generator reads the kernel's (getrandom), and is meant for keys.
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // A name of this call's own, made new: the linked file is the key, so nobody may write it after the link.
        let temporary = PathName.join(folder, "key.\(getpid()).\(UInt64.random(in: .min ... .max, using: &generator))")
        let descriptor = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: FilePermissions.fileMode)
        defer { try? POSIX.unlinkIfPresent(temporary) }
        do {
            try POSIX.writeAll(descriptor, key, path: temporary)
            try POSIX.fsync(descriptor, path: temporary)
            close(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        if link(temporary, keyPath) != 0, errno != EEXIST { throw POSIX.failure("link \(keyPath)", errno) }
        guard let key = try existingKey() else { throw POSIX.failure("open \(keyPath)", ENOENT) }
        return key
    }
}
