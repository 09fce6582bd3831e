/// What a git record keeps as its password: git's password, then one line for each of
/// `password_expiry_utc` and `oauth_refresh_token` that git gave, the layout
/// git-credential-libsecret (git ≥ 2.45) and git-credential-osxkeychain use:
///
/// ```
/// hunter2
/// password_expiry_utc=1684189401
/// oauth_refresh_token=xyzzy
/// ```
///
/// So the refresh token is sealed exactly as the password is, in every store, and is
/// never an attribute anyone can search or read in the clear. A password holds no line
/// break (git's lines cannot carry one), so the first line is always the password.
package enum GitCredentialSecret {
    static let expiryPrefix = Array("password_expiry_utc=".utf8)
    static let refreshPrefix = Array("oauth_refresh_token=".utf8)

    /// The text stored as the record's password for `credential` (its password, expiry and refresh token).
    package static func encode(_ credential: GitCredential) -> String {
        var text = credential.password ?? ""
        if let expiry = credential.passwordExpiryUTC { text += "\npassword_expiry_utc=" + expiry }
        if let token = credential.oauthRefreshToken { text += "\noauth_refresh_token=" + token }
        return text
    }

    /// Sets on `credential` the password, expiry and refresh token a stored `secret` holds;
    /// `false` when a line after the first is not one of the two this layout writes (a
    /// password with a line break in it, put there by something else).
    package static func decode(_ secret: String, into credential: inout GitCredential) -> Bool {
        let lines = Array(secret.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        credential.password = String(decoding: lines[0], as: UTF8.self)
        credential.passwordExpiryUTC = nil
        credential.oauthRefreshToken = nil
        for line in lines.dropFirst() {
            // Cut after an ASCII prefix, so each value is whole UTF-8.
            if line.starts(with: expiryPrefix) {
                credential.passwordExpiryUTC = String(decoding: line.dropFirst(expiryPrefix.count), as: UTF8.self)
            } else if line.starts(with: refreshPrefix) {
                credential.oauthRefreshToken = String(decoding: line.dropFirst(refreshPrefix.count), as: UTF8.self)
            } else {
                return false
            }
        }
        return true
    }
}
