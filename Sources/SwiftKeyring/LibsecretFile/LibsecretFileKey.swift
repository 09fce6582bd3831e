package import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the password of libsecret's keyring file comes from: the bytes PBKDF2 turns
/// into the file's key.
///
/// libsecret itself takes them from the Secret portal inside a sandbox, or from
/// `SECRET_FILE_TEST_PASSWORD`. Here they come from the Secret portal too (``portal``), or
/// from the secret sources the encrypted file uses (``FileStoreSecret``): a passphrase's UTF-8
/// bytes, or a key file's 32 raw bytes. `description` never shows the password.
///
/// ```swift
/// // The file secret-tool writes with SECRET_BACKEND=file SECRET_FILE_TEST_PASSWORD=…
/// let store = try LibsecretFileStore(url: LibsecretFileStore.defaultURL(),
///                                    key: .secret(.passphrase("the same password")))
///
/// // The file an app's libsecret keeps inside a Flatpak or Snap
/// let sandboxed = try LibsecretFileStore(url: LibsecretFileStore.defaultURL(), key: .portal)
/// ```
public enum LibsecretFileKey: Sendable, Equatable, CustomStringConvertible {
    /// A passphrase or key from the encrypted file's sources: its bytes are the password.
    case secret(FileStoreSecret)
    /// The Secret portal's secret for this app (`org.freedesktop.portal.Secret`), as libsecret
    /// keys its file inside a Flatpak or Snap: 64 bytes, asked for on the process's session bus
    /// each time a store opens, within 5 seconds for the calls and 120 for the portal's answer.
    case portal

    /// Finds the password in the encrypted file's sources: `explicit` when given, else the
    /// environment, as ``FileStoreSecret/resolve(explicit:environment:)`` reads it.
    /// - Throws: what `FileStoreSecret.resolve` throws, ``KeyringError/passphraseRequired(sources:)`` among them.
    public static func resolve(
        explicit: FileStoreSecret? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LibsecretFileKey {
        .secret(try FileStoreSecret.resolve(explicit: explicit, environment: environment))
    }

    /// Which source this is, never the password.
    public var description: String {
        switch self {
        case .secret(let secret): return secret.description
        case .portal: return "the Secret portal's secret for this app"
        }
    }

    /// The password's bytes, in secure memory.
    /// - Throws: `.invalidConfiguration` for an empty passphrase, a key that is not 32 bytes,
    ///   or a key or passphrase file that cannot be read.
    package func password() throws -> SecureBytes {
        try password(
            environment: ProcessInfo.processInfo.environment, timeout: .seconds(5),
            responseTimeout: SecretServiceStore.defaultPromptTimeout)
    }

    /// The password's bytes, in secure memory; the portal's is asked for on the session bus
    /// of `environment`, its calls bounded by `timeout` and its answer by `responseTimeout`.
    /// - Throws: also what ``SecretPortal/retrieveKey(timeout:responseTimeout:environment:)`` throws.
    package func password(environment: [String: String], timeout: Duration, responseTimeout: Duration) throws
        -> SecureBytes
    {
        switch self {
        case .portal:
            return try SecretPortal.retrieveKey(timeout: timeout, responseTimeout: responseTimeout, environment: environment)
        case .secret(let secret):
            switch try SecretMaterial(secret) {
            case .passphrase(let bytes), .key(let bytes), .unlocked(let bytes, _): return bytes
            }
        }
    }
}
