/// What git sent, with its secrets left in the input's bytes (``GitCredentialInput/request(_:)``):
/// the credential without its password and refresh token, and where they lie in the input:
/// the values of `password=` and `oauth_refresh_token=` lines, and the still percent-encoded
/// password of a `url=` line.
package struct GitCredentialRequest: Sendable, Equatable {
    /// What git sent but the password and the refresh token.
    package var credential = GitCredential()
    /// The value of the last `password=` line, or else the password part of the last `url=`, as
    /// indices of the input; `nil` when neither came after the last `url=`.
    package var password: Range<Int>?
    /// Whether ``password`` is percent-encoded: it came in a `url=` line.
    package var passwordIsPercentEncoded = false
    /// The value of the last `oauth_refresh_token=` line, as indices of the input.
    package var refreshToken: Range<Int>?

    /// A request for nothing yet, as the input's start and each `url=` leave it.
    package init() {}

    /// Whether git gave a password, in a line or in its `url=`.
    package var hasPassword: Bool { password != nil }

    /// Calls `body` with the password's bytes taken from `input` (the bytes this request was read
    /// from), or `nil` when git gave none: a `url=`'s decoded into a buffer wiped when `body` returns.
    package func withPassword<Result>(in input: [UInt8], _ body: (ArraySlice<UInt8>?) throws -> Result) rethrows -> Result {
        guard let password else { return try body(nil) }
        guard passwordIsPercentEncoded else { return try body(input[password]) }
        return try PercentEncoding.withDecodedBytes(input[password]) { try body($0[...]) }
    }

    /// The credential with its secrets made `String`s from `input`, the bytes this request was read from.
    package func credential(in input: [UInt8]) -> GitCredential {
        var whole = credential
        // Checked as UTF-8 when read.
        whole.password = withPassword(in: input) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
        if let refreshToken { whole.oauthRefreshToken = String(decoding: input[refreshToken], as: UTF8.self) }
        return whole
    }

    /// The secret a record keeps for this request (``GitCredentialSecret``'s layout), made from
    /// `input`'s bytes without a `String` of the password or refresh token; the caller wipes it.
    package func secret(in input: [UInt8]) -> [UInt8] {
        let token = refreshToken.map { input[$0] }
        return withPassword(in: input) { password in
            GitCredentialSecret.encode(
                password: password ?? [], expiry: credential.passwordExpiryUTC, refreshToken: token)
        }
    }
}
