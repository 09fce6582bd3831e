import Foundation

/// What opens an encrypted keyring file: a passphrase, or a raw 32-byte key.
///
/// A passphrase goes through Argon2id (its cost is kept in the file); a key is
/// used as it is, for machines that hold a key rather than a person's passphrase.
/// `description` never shows a passphrase or key.
///
/// ```swift
/// let secret = try FileStoreSecret.resolve()          // from the environment, see `resolve`
/// let store = try EncryptedFileStore(url: EncryptedFileStore.defaultURL(), secret: secret)
/// ```
public enum FileStoreSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A passphrase; its UTF-8 bytes in Unicode normalisation form C are what the KDF sees,
    /// so the same text typed on any system opens the file.
    case passphrase(String)
    /// A file holding exactly 32 raw bytes, the key itself; other users must not be able to read it.
    case keyFile(URL)
    /// 32 raw bytes, the key itself.
    case key(Data)

    /// Says which kind of secret this is, and for a key file, where it is; never the secret.
    public var description: String {
        switch self {
        case .passphrase: return "passphrase (hidden)"
        case .keyFile(let url): return "key file at \(url.path)"
        case .key(let key): return "raw key (\(key.count) bytes, hidden)"
        }
    }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// The length of a raw key, in bytes.
    public static let keyLength = 32
}
