/// Which secret keys libsecret's file (``StoreChoice/libsecretFile``): the setting
/// `SWIFT_KEYRING_LIBSECRET_KEY`, or ``KeyringConfiguration/libsecretKey``.
///
/// The raw values are the setting's words.
public enum LibsecretKeyChoice: String, Sendable, Hashable, CaseIterable, Codable {
    /// The Secret portal when one answers, as libsecret does in a sandbox; otherwise the
    /// encrypted file's sources. A passphrase or key given in ``KeyringConfiguration/fileSecret`` wins.
    case auto
    /// The Secret portal's secret for this app, and an error when no portal gives one.
    case portal
    /// The encrypted file's sources (``FileStoreSecret/resolve(explicit:environment:)``): a passphrase,
    /// a passphrase file, a systemd credential or a key file, whose bytes are the password.
    case passphrase
}
