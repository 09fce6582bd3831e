#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// A file whose content, less one final newline, is the passphrase (what `resolve` gives for
    /// `SWIFT_KEYRING_PASSPHRASE_FILE` and systemd credentials). It is read straight into
    /// libgcrypt's secure memory each time a store opens, so an ASCII passphrase never
    /// passes through a `String`; other users must not be able to read it, and only its owner write it.
    case passphraseFile(URL)
    /// A file holding exactly 32 raw bytes, the key itself, read straight into secure memory;
    /// other users must not be able to read it, and only its owner write it.
    case keyFile(URL)
    /// 32 raw bytes, the key itself.
    case key(Data)

    /// Says which kind of secret this is, and for a key file, where it is; never the secret.
    public var description: String {
        switch self {
        case .passphrase: return "passphrase (hidden)"
        case .passphraseFile(let url): return "passphrase file at \(url.path)"
        case .keyFile(let url): return "key file at \(url.path)"
        case .key(let key): return "raw key (\(key.count) bytes, hidden)"
        }
    }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// The length of a raw key, in bytes.
    public static let keyLength = 32
}
