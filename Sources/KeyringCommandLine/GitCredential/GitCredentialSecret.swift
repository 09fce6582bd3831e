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

    /// Where a stored secret's parts lie in its bytes: the password (its first line), and the
    /// values of the expiry and refresh-token lines when it has them (a repeated line's last wins).
    package struct Parts: Sendable, Equatable {
        /// The first line: the password.
        package var password: Range<Int>
        /// The value of the `password_expiry_utc=` line, if any.
        package var expiry: Range<Int>?
        /// The value of the `oauth_refresh_token=` line, if any.
        package var refreshToken: Range<Int>?
    }

    /// The bytes stored as the record's password: `password`, then the expiry's and the refresh
    /// token's lines when given. Made from the secrets' own bytes, so they need never be a
    /// `String`: one buffer of the exact size (a growing one would leave outgrown copies
    /// unwiped), which the caller wipes.
    package static func encode(
        password: some Collection<UInt8>, expiry: String?, refreshToken: (some Collection<UInt8>)?
    ) -> [UInt8] {
        let expiryLine = expiry.map { Array(("\n" + String(decoding: expiryPrefix, as: UTF8.self) + $0).utf8) } ?? []
        let refreshCount = refreshToken.map { 1 + refreshPrefix.count + $0.count } ?? 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(password.count + expiryLine.count + refreshCount)
        bytes.append(contentsOf: password)
        bytes.append(contentsOf: expiryLine)
        if let refreshToken {
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: refreshPrefix)
            bytes.append(contentsOf: refreshToken)
        }
        return bytes
    }

    /// The parts of a stored `secret`; `nil` when a line after the first is not one of the two
    /// this layout writes (a password with a line break in it, put there by something else).
    package static func parts(of secret: [UInt8]) -> Parts? {
        var lines = secret.indices.split(omittingEmptySubsequences: false) { secret[$0] == UInt8(ascii: "\n") }
            .map { $0.startIndex..<$0.endIndex }[...]
        guard let first = lines.popFirst() else { return Parts(password: 0..<0) }
        var parts = Parts(password: first)
        for line in lines {
            if secret[line].starts(with: expiryPrefix) {
                parts.expiry = (line.lowerBound + expiryPrefix.count)..<line.upperBound
            } else if secret[line].starts(with: refreshPrefix) {
                parts.refreshToken = (line.lowerBound + refreshPrefix.count)..<line.upperBound
            } else {
                return nil
            }
        }
        return parts
    }

    /// Sets on `credential` the password, expiry and refresh token a stored `secret` holds;
    /// `false` when a line after the first is not one of the two this layout writes (a
    /// password with a line break in it, put there by something else).
    package static func decode(_ secret: String, into credential: inout GitCredential) -> Bool {
        let bytes = Array(secret.utf8)
        guard let parts = parts(of: bytes) else { return false }
        // Cut after an ASCII prefix or at a line break, so each value is whole UTF-8.
        credential.password = String(decoding: bytes[parts.password], as: UTF8.self)
        credential.passwordExpiryUTC = parts.expiry.map { String(decoding: bytes[$0], as: UTF8.self) }
        credential.oauthRefreshToken = parts.refreshToken.map { String(decoding: bytes[$0], as: UTF8.self) }
        return true
    }
}
