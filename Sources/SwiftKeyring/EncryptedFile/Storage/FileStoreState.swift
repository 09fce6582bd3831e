import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an ``EncryptedFileStore`` knows: its secret and keys, and the index of the
/// file version it last read or wrote. Only touched under the store's mutex.
struct FileStoreState: Sendable {
    /// The passphrase or key, in secure memory, so a file rewritten with a new
    /// salt by another process (with the same secret) can still be opened.
    var material: SecretMaterial
    var header: KeyedHeader
    /// `header.encoded`, kept because every record binds it as associated data.
    var headerBytes: [UInt8]
    var keys: SealingKeys
    /// The master key `keys` came from, kept for `EncryptedFileStore.unlock(for:)`.
    var master: SecureBytes
    /// The index: every record's names decrypted, its metadata and secret still sealed.
    var records: [RecordID: SealedRecord]
    /// The version `records` came from; `nil` when there was no file.
    var identity: FileIdentity?
    /// Keeps that version's inode from being reused while it is compared against.
    var pinned: PinnedFile?

    /// A state for a file that is not on disk yet.
    init(material: SecretMaterial, header: KeyedHeader, keys: SealingKeys, master: SecureBytes) {
        self.material = material
        self.header = header
        self.headerBytes = header.encoded
        self.keys = keys
        self.master = master
        self.records = [:]
    }

    /// Reads the file at `paths.file`, or returns `nil` when there is none.
    /// - Throws: `.insecurePermissions`, `.damaged`, `.wrongPassphrase`, or `.backend`; the file is never changed.
    static func read(_ paths: StorePaths, material: SecretMaterial) throws -> FileStoreState? {
        // Opened without waiting: a FIFO in the file's place is refused, never waited on.
        guard let (descriptor, _) = try POSIX.openRegularFileIfPresent(paths.file) else { return nil }
        return try load(PinnedFile(descriptor), paths, material: material, known: nil)
    }

    /// Brings the index up to date with the file on disk: a `stat` when nothing
    /// changed, a full read when another process (or store) wrote a new version.
    /// A file that has gone is an empty keyring; the next write makes it again.
    /// - Throws: when the new version cannot be read; the state is then left as it was.
    mutating func refresh(_ paths: StorePaths) throws {
        guard let info = try POSIX.lstatIfPresent(paths.file) else {
            records = [:]
            identity = nil
            pinned = nil
            return
        }
        // Checked on every call, as chmod and chown do not make a new version.
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        if let identity, identity == FileIdentity(info) { return }
        guard let (descriptor, _) = try POSIX.openRegularFileIfPresent(paths.file) else {
            return try refresh(paths)
        }
        self = try Self.load(PinnedFile(descriptor), paths, material: material, known: (header, keys, master))
    }

    /// Reads, authenticates and indexes the file version behind `pinned`.
    /// - Parameter known: a header and its keys, reused when the file's header is the same,
    ///   so only a new salt or KDF cost runs the KDF again.
    private static func load(
        _ pinned: PinnedFile, _ paths: StorePaths, material: SecretMaterial, known: (KeyedHeader, SealingKeys, SecureBytes)?
    ) throws -> FileStoreState {
        let info = try POSIX.fstat(pinned.descriptor, path: paths.file)
        try FilePermissions.require(paths.file, FilePermissions.fileProblem(info))
        let bytes = try POSIX.readAll(pinned.descriptor, path: paths.file, sizeHint: Int(info.st_size))
        let header = try KeyedHeader.decode(bytes)
        let keys: SealingKeys
        let master: SecureBytes
        if let known, known.0 == header {
            (keys, master) = (known.1, known.2)
        } else {
            master = try material.masterKey(for: header)
            keys = try SealingKeys(master: master, salt: header.salt)
        }
        try header.verify(keys)
        var state = FileStoreState(material: material, header: header, keys: keys, master: master)
        state.records = try KeyringFile.decode(bytes, header: state.headerBytes, keys: keys)
        state.identity = FileIdentity(info)
        state.pinned = pinned
        return state
    }

    /// Writes `newRecords` as the next version of the file and makes them the index.
    /// The caller holds the file lock and has refreshed first.
    /// `newRecords` then point into the bytes written (see `KeyringFile.encode`).
    mutating func write(_ newRecords: inout [RecordID: SealedRecord], _ paths: StorePaths) throws {
        let bytes = try KeyringFile.encode(header: headerBytes, records: &newRecords, keys: keys)
        try install(bytes, records: newRecords, paths)
    }

    /// Replaces the file with `bytes` and makes `newRecords`, which point into them, the index;
    /// when the replacement throws, nothing changed.
    private mutating func install(_ bytes: [UInt8], records newRecords: [RecordID: SealedRecord], _ paths: StorePaths)
        throws
    {
        let pinned = try AtomicFileWriter.replace(paths, with: bytes)
        identity = FileIdentity(try POSIX.fstat(pinned.descriptor, path: paths.file))
        self.pinned = pinned
        records = newRecords
    }
}

extension FileStoreState {
    /// Writes the index's records and `added` as the next version of the file, each
    /// added record sealed straight into the bytes written (see `KeyringFile.encode(header:keeping:adding:keys:)`).
    /// The caller holds the file lock and has refreshed first; when this throws, nothing changed.
    mutating func write(adding added: some Sequence<StoredRecord>, _ paths: StorePaths) throws {
        let (bytes, newRecords) = try KeyringFile.encode(header: headerBytes, keeping: records, adding: added, keys: keys)
        try install(bytes, records: newRecords, paths)
    }
}
