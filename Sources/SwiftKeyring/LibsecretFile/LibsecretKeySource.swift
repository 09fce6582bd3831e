/// The secret a decision chose for libsecret's file, and why: what ``StoreSelector``
/// opens it with, and what `doctor` shows.
struct LibsecretKeySource: Sendable, Hashable {
    enum Origin: Sendable, Hashable {
        /// The Secret portal's per-app secret.
        case portal
        /// The encrypted file's sources (``FileStoreSecret``).
        case fileSecret
    }

    var origin: Origin
    /// Why this one, such as `the Secret portal answers`.
    var reason: String

    /// One line for people: the source, then why.
    var description: String {
        switch origin {
        case .portal:
            return "the Secret portal's secret for this app (org.freedesktop.portal.Secret), because \(reason)"
        case .fileSecret:
            return "a passphrase or key, as the encrypted file finds one "
                + "(\(FileStoreSecret.sources.joined(separator: ", "))), because \(reason)"
        }
    }
}
