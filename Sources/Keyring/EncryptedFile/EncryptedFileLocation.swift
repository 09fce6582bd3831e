import Foundation

/// Where an encrypted keyring file is and who may read it, as found on disk
/// without opening it: what `swift-keyring doctor` can show before any passphrase is given.
public struct EncryptedFileLocation: Sendable, Hashable {
    /// The file's path.
    public var path: String
    /// Whether the file exists now.
    public var exists: Bool
    /// The file's permission bits, such as `0o600`; `nil` when it does not exist.
    public var filePermissions: UInt16?
    /// The folder's permission bits, such as `0o700`; `nil` when it does not exist.
    public var folderPermissions: UInt16?
    /// Why the file or folder would be refused (open to others, another owner), or `nil` when both are fine.
    public var permissionProblem: String?
    /// The file's size in bytes; 0 when it does not exist.
    public var size: Int
}

extension EncryptedFileStore {
    /// Examines the file at `url` and its folder without reading or decrypting anything.
    ///
    /// Unlike the record calls it does not refuse an insecure file: it reports
    /// the problem in `permissionProblem`, so a person can see what to fix.
    /// - Throws: `KeyringError.backend` when the file or folder cannot be examined.
    public static func inspect(_ url: URL) throws -> EncryptedFileLocation {
        let paths = StorePaths(url)
        let file = try POSIX.lstatIfPresent(paths.file)
        let folder = try POSIX.statIfPresent(paths.folder)
        let fileProblem = file.flatMap(FilePermissions.fileProblem).map { "\(paths.file): \($0)" }
        let folderProblem = folder.flatMap(FilePermissions.folderProblem).map { "\(paths.folder): \($0)" }
        return EncryptedFileLocation(
            path: paths.file,
            exists: file != nil,
            filePermissions: file.map { UInt16($0.st_mode & 0o7777) },
            folderPermissions: folder.map { UInt16($0.st_mode & 0o7777) },
            permissionProblem: folderProblem ?? fileProblem,
            size: file.map { Int($0.st_size) } ?? 0
        )
    }
}
