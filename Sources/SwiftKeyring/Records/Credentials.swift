import KeyringValidation

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One account's login: username, password, the site's URL and two flags.
///
/// A value is checked when it is made and again when it is stored, so an
/// `ftp:` URL or an empty username never reaches a store. `description` never
/// shows the password.
///
/// ```swift
/// let work = try Credentials(username: "alice", password: pw,
///                            url: URL(string: "https://mail.example.com")!)
/// ```
public struct Credentials: Sendable, Hashable {
    /// The account name; not empty.
    public var username: String
    /// The password: any Unicode text, kept exactly (a NUL character included).
    public var password: String
    /// Where the account lives: an `http` or `https` URL with a host, and neither a password nor a fragment in it.
    /// The URL is metadata, kept as a plain attribute and shown by `list`: a secret in its query is not protected.
    public var url: URL
    /// The sync flag. Linux has no keychain sync: the flag is stored and returned
    /// unchanged, and `list` can filter on it, so an app can keep the same meaning
    /// it has on other platforms.
    public var syncEnabled: Bool
    /// The background-access flag (on Apple platforms, "readable while the device
    /// is locked"). Linux has no such switch: the flag is stored and returned
    /// unchanged, and `list` can filter on it.
    public var backgroundAccess: Bool

    /// Creates credentials and validates them.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` naming the field and the reason.
    public init(
        username: String,
        password: String,
        url: URL,
        syncEnabled: Bool = false,
        backgroundAccess: Bool = false
    ) throws {
        self.init(
            unvalidatedUsername: username, password: password, url: url,
            syncEnabled: syncEnabled, backgroundAccess: backgroundAccess
        )
        try validate()
    }

    /// The fields as given, for a record read back that is checked with the stored rules instead.
    init(unvalidatedUsername username: String, password: String, url: URL, syncEnabled: Bool, backgroundAccess: Bool) {
        self.username = username
        self.password = password
        self.url = url
        self.syncEnabled = syncEnabled
        self.backgroundAccess = backgroundAccess
    }

    /// Checks every field, as ``Keyring`` does before storing.
    ///
    /// The checks are `KeyringValidation` rules: a non-empty username without a NUL
    /// character (any other text is kept exactly), a password of at most 1 MiB, and an
    /// `http`/`https` URL with a host and neither a password nor a fragment in
    /// it, each name at most 4096 UTF-8 bytes.
    /// - Throws: ``KeyringError/invalidRecord(field:reason:)`` for the first rule that fails.
    public func validate() throws {
        try RecordValidation.checkCredentials(self)
    }

    /// Every rule these credentials fail, each as one sentence ("URL must name a host."),
    /// for a login form that shows them all; empty when they are valid. The password is never quoted.
    public var validationFailures: [ValidationFailure] {
        RecordValidation.credentials.validate(self)
    }
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible {
    /// Username, URL and flags; the password is never shown.
    public var description: String {
        "Credentials(username: \(username), password: <\(password.utf8.count) bytes hidden>, url: \(url.absoluteString), "
            + "syncEnabled: \(syncEnabled), backgroundAccess: \(backgroundAccess))"
    }

    /// The same as `description`; `dump` and the debugger read `customMirror`, which hides the password too.
    public var debugDescription: String { description }
}
