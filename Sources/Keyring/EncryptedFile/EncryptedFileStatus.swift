import Foundation

/// What `swift-keyring doctor` shows about an encrypted keyring file: where it
/// is, who may read it, and how it is protected. It holds no key material.
public struct EncryptedFileStatus: Sendable, Hashable {
    /// The file's path.
    public var path: String
    /// Whether the file exists now.
    public var exists: Bool
    /// The file's permission bits, such as `0o600`; `nil` when it does not exist.
    public var filePermissions: UInt16?
    /// The folder's permission bits, such as `0o700`; `nil` when it does not exist.
    public var folderPermissions: UInt16?
    /// Why the file or folder is refused (open to others, another owner), or `nil` when both are fine.
    public var permissionProblem: String?
    /// The file's size in bytes; 0 when it does not exist.
    public var size: Int
    /// How many records the store read when it last looked at the file.
    public var recordCount: Int
    /// How the key is made, such as `argon2id t=3 m=65536 KiB p=1` or `raw 32-byte key`.
    public var keyDerivation: String
    /// The file format version.
    public var formatVersion: Int
    /// The version of libgcrypt in use.
    public var libgcryptVersion: String
}

extension EncryptedFileStore {
    /// The file's location, permissions and protection, as they are on disk now.
    ///
    /// Unlike the record calls it does not refuse an insecure file: it reports
    /// the problem in `permissionProblem`, so a person can see what to fix.
    /// - Throws: `KeyringError.backend` when the file or folder cannot be examined.
    public func status() throws -> EncryptedFileStatus {
        let file = try POSIX.lstatIfPresent(paths.file)
        let folder = try POSIX.statIfPresent(paths.folder)
        let fileProblem = file.flatMap(FilePermissions.fileProblem).map { "\(paths.file): \($0)" }
        let folderProblem = folder.flatMap(FilePermissions.folderProblem).map { "\(paths.folder): \($0)" }
        let (count, header) = state.withLock { ($0.records.count, $0.header) }
        return EncryptedFileStatus(
            path: paths.file,
            exists: file != nil,
            filePermissions: file.map { UInt16($0.st_mode & 0o7777) },
            folderPermissions: folder.map { UInt16($0.st_mode & 0o7777) },
            permissionProblem: folderProblem ?? fileProblem,
            size: file.map { Int($0.st_size) } ?? 0,
            recordCount: count,
            keyDerivation: header.parameters?.description ?? "raw \(FileStoreSecret.keyLength)-byte key",
            formatVersion: Int(FileHeader.formatVersion),
            libgcryptVersion: Self.libgcryptVersion
        )
    }
}
