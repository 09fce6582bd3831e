import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `swift-keyring doctor` shows about an encrypted keyring file: where it
/// is, who may read it, and how it is protected. It holds no key material.
public struct EncryptedFileStatus: Sendable, Hashable {
    /// Where the file is, its permissions and size.
    public var location: EncryptedFileLocation
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
    /// the problem in `location.permissionProblem`, so a person can see what to fix.
    /// - Throws: ``KeyringError/backend(domain:code:message:)`` when the file or folder cannot be examined.
    public func status() throws -> EncryptedFileStatus {
        return try KeyringError.translatingCrypto {
            let (count, header) = state.withLock { ($0.records.count, $0.header) }
            return EncryptedFileStatus(
                location: try Self.inspect(url),
                recordCount: count,
                keyDerivation: header.parameters?.description ?? "raw \(FileStoreSecret.keyLength)-byte key",
                formatVersion: Int(KeyedHeader.formatVersion),
                libgcryptVersion: Self.libgcryptVersion
            )
        }
    }
}
