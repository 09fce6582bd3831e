import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

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
    /// How the file's key is made, read from its plaintext header, such as
    /// `argon2id t=3 m=65536 KiB p=1` or `raw 32-byte key`; `nil` when there is no readable header.
    public var keyDerivation: String?
    /// Why the file's key derivation is a concern (weaker than the default, or a header
    /// that would be refused), or `nil` when it is fine or there is no file.
    public var keyDerivationProblem: String?
}

extension EncryptedFileStore {
    /// Examines the file at `url` and its folder without reading or decrypting anything.
    ///
    /// Unlike the record calls it does not refuse an insecure file: it reports
    /// the problem in `permissionProblem`, so a person can see what to fix.
    /// - Throws: ``KeyringError/backend(domain:code:message:)`` when the file or folder cannot be examined.
    public static func inspect(_ url: URL) throws -> EncryptedFileLocation {
        let paths = StorePaths(url)
        let file = try POSIX.lstatIfPresent(paths.file)
        let folder = try POSIX.statIfPresent(paths.folder)
        let fileProblem = file.flatMap(FilePermissions.fileProblem).map { "\(paths.file): \($0)" }
        let header = file == nil ? nil : readHeader(paths.file)
        let folderProblem = folder.flatMap(FilePermissions.folderProblem).map { "\(paths.folder): \($0)" }
        return EncryptedFileLocation(
            path: paths.file,
            exists: file != nil,
            filePermissions: file.map { UInt16($0.st_mode & 0o7777) },
            folderPermissions: folder.map { UInt16($0.st_mode & 0o7777) },
            permissionProblem: folderProblem ?? fileProblem,
            size: file.map { Int($0.st_size) } ?? 0,
            keyDerivation: header.flatMap { try? $0.get() }.map {
                $0.parameters?.description ?? "raw \(FileStoreSecret.keyLength)-byte key"
            },
            keyDerivationProblem: header.flatMap { header in
                switch header {
                case .success(let header): return header.parameters?.weakness
                case .failure(let error): return "the header would be refused: \(error)"
                }
            }
        )
    }

    /// The file's header, decoded without any secret, or why it cannot be; `nil` when
    /// the file cannot be opened as a regular file (the permission check reports that).
    private static func readHeader(_ path: String) -> Result<KeyedHeader, KeyringError>? {
        guard let opened = try? POSIX.openRegularFileIfPresent(path) else { return nil }
        defer { close(opened.descriptor) }
        var bytes = [UInt8](repeating: 0, count: KeyedHeader.length)
        guard let count = try? bytes.withUnsafeMutableBytes({ try POSIX.read(opened.descriptor, into: $0, path: path) }) else {
            return nil
        }
        do {
            return .success(try KeyedHeader.decode(Array(bytes.prefix(count))))
        } catch let error as CryptoError {
            return .failure(KeyringError(error))
        } catch {
            return nil
        }
    }
}
