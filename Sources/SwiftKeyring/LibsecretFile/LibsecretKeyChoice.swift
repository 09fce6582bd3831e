/// Which secret keys libsecret's file (``StoreChoice/libsecretFile``): the setting
/// `SWIFT_KEYRING_LIBSECRET_KEY`, or ``KeyringConfiguration/libsecretKey``.
///
/// The raw values are the setting's words.
public enum LibsecretKeyChoice: String, Sendable, Hashable, CaseIterable, Codable {
    /// Inside a sandbox, the Secret portal, as libsecret keys its file there. Elsewhere a
    /// passphrase or key that is set (``KeyringConfiguration/fileSecret`` or the environment,
    /// as ``FileStoreSecret/resolve(explicit:environment:)`` finds it), else the Secret portal
    /// when one answers, else the encrypted file's sources, whose error names them all.
    case auto
    /// The Secret portal's secret for this app, and an error when no portal gives one.
    case portal
    /// The encrypted file's sources (``FileStoreSecret/resolve(explicit:environment:)``): a passphrase,
    /// a passphrase file, a systemd credential or a key file, whose bytes are the password.
    case passphrase
}
