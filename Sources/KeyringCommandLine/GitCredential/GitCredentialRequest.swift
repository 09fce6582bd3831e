/// What git sent, with its secrets left in the input's bytes (``GitCredentialInput/request(_:)``):
/// the credential without the password and refresh token of `password=` and
/// `oauth_refresh_token=` lines, and where their values lie in the input. A password given
/// in a `url=` is in `credential`, as ``GitCredential/setURL(_:)`` decodes it.
package struct GitCredentialRequest: Sendable, Equatable {
    /// What git sent but the secrets of `password=` and `oauth_refresh_token=` lines.
    package var credential = GitCredential()
    /// The value of the last `password=` line, as indices of the input; `nil` when none came after the last `url=`.
    package var password: Range<Int>?
    /// The value of the last `oauth_refresh_token=` line, as indices of the input.
    package var refreshToken: Range<Int>?

    /// A request for nothing yet, as the input's start and each `url=` leave it.
    package init() {}

    /// Whether git gave a password, in a line or in its `url=`.
    package var hasPassword: Bool { password != nil || credential.password != nil }

    /// The credential with its secrets made `String`s from `input`, the bytes this request was read from.
    package func credential(in input: [UInt8]) -> GitCredential {
        var whole = credential
        // Checked as UTF-8 when read.
        if let password { whole.password = String(decoding: input[password], as: UTF8.self) }
        if let refreshToken { whole.oauthRefreshToken = String(decoding: input[refreshToken], as: UTF8.self) }
        return whole
    }

    /// The secret a record keeps for this request (``GitCredentialSecret``'s layout), made from
    /// `input`'s bytes without a `String` of the password or refresh token; the caller wipes it.
    package func secret(in input: [UInt8]) -> [UInt8] {
        let token = refreshToken.map { input[$0] }
        if let password {
            return GitCredentialSecret.encode(
                password: input[password], expiry: credential.passwordExpiryUTC, refreshToken: token)
        }
        return GitCredentialSecret.encode(
            password: ArraySlice((credential.password ?? "").utf8), expiry: credential.passwordExpiryUTC, refreshToken: token)
    }
}
