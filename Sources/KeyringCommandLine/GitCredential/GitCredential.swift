/// What git says about one credential (git-credential(1)): the attributes a helper uses,
/// each `nil` when git did not send it. A sent but empty value is `""`, which is not
/// the same: `username=` asks for the record with the empty username.
package struct GitCredential: Sendable, Equatable {
    package var `protocol`: String?
    /// The host, with `:port` when git names one (git's protocol has no port of its own).
    package var host: String?
    /// Sent only under `credential.useHttpPath`; without it, any stored path matches.
    package var path: String?
    package var username: String?
    package var password: String?
    /// When the password stops working, in seconds since 1970 UTC, as git ≥ 2.41 sends it.
    package var passwordExpiryUTC: String?
    /// An OAuth refresh token (git ≥ 2.41): a secret, kept and hidden as the password is.
    package var oauthRefreshToken: String?

    package init(
        protocol: String? = nil, host: String? = nil, path: String? = nil, username: String? = nil, password: String? = nil,
        passwordExpiryUTC: String? = nil, oauthRefreshToken: String? = nil
    ) {
        self.protocol = `protocol`
        self.host = host
        self.path = path
        self.username = username
        self.password = password
        self.passwordExpiryUTC = passwordExpiryUTC
        self.oauthRefreshToken = oauthRefreshToken
    }

    /// The protocols this helper answers for; for any other git asks the next helper.
    package static let protocols = ["http", "https"]

    /// Whether `name` is one of ``protocols``, byte for byte.
    package static func isWebProtocol(_ name: some Collection<UInt8>) -> Bool {
        protocols.contains { $0.utf8.elementsEqual(name) }
    }

    /// Whether this is an http or https credential with a host: the only ones the helper handles.
    package var isWeb: Bool {
        guard let `protocol`, let host else { return false }
        return Self.isWebProtocol(`protocol`.utf8) && !host.isEmpty
    }

    /// The expiry as a number, read as git reads it: decimal digits; `nil` when none was given,
    /// or for `0` and a value too large, which git takes as "never expires".
    package var expiry: Int64? {
        guard let text = passwordExpiryUTC, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(text), value > 0
        else { return nil }
        return value
    }

    /// Whether the password's expiry has passed at `now` (seconds since 1970 UTC), as git's own
    /// helpers decide: such a credential is never answered.
    package func hasExpired(at now: Int64) -> Bool {
        guard let expiry else { return false }
        return expiry <= now
    }

    /// Whether a stored credential `have` answers this one, as git's own `credential_match`
    /// decides: every attribute sent here must be equal there; one not sent matches anything.
    package func matches(_ have: GitCredential) -> Bool {
        func check(_ want: String?, _ have: String?) -> Bool {
            guard let want else { return true }
            // Compared as bytes, as git's strcmp does: Swift's == would equate NFC and NFD forms.
            return have.map { $0.utf8.elementsEqual(want.utf8) } ?? false
        }
        return check(`protocol`, have.protocol) && check(host, have.host) && check(path, have.path)
            && check(username, have.username)
    }

    /// Sets the parts of `url` as git's `credential_from_url` does for a `url=` line:
    /// everything said before is cleared; the protocol runs to the first `://`; the host
    /// part ends at the first `/`, `?` or `#`; a username (and a password after the first
    /// `:`) runs to the first `@` before it; the path loses its leading slashes, is
    /// percent-decoded, then loses its trailing ones.
    ///
    /// Split as bytes, never as `Character`s: a letter such as U+0D4E joins the `@` after
    /// it into one `Character`, and a split by `Character`s would then pass over that `@`.
    /// - Returns: `false` when `url` has no `scheme://` or a part does not decode to UTF-8.
    package mutating func setURL(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        var secret: Range<Int>?
        guard setURL(bytes[...], password: &secret) else { return false }
        // Checked to decode to UTF-8 when split.
        password = secret.flatMap { PercentEncoding.decode(bytes[$0]) }
        return true
    }

    /// ``setURL(_:)`` of a `url=` line's bytes, but for the password, which is left where it is:
    /// `password` is set to where it lies in `bytes` (their indices), still percent-encoded and
    /// checked to decode to UTF-8, so git's helper decodes it into a buffer it wipes
    /// (``GitCredentialRequest``) and never makes a `String` of it.
    package mutating func setURL(_ bytes: ArraySlice<UInt8>, password: inout Range<Int>?) -> Bool {
        self = GitCredential()
        password = nil
        guard let schemeEnd = bytes.firstRange(of: Array("://".utf8)) else { return false }
        // Cut before an ASCII byte, so the protocol is whole UTF-8.
        `protocol` = String(decoding: bytes[..<schemeEnd.lowerBound], as: UTF8.self)
        let start = schemeEnd.upperBound
        let slash =
            bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        var hostStart = start
        if let at = bytes[start...].firstIndex(of: UInt8(ascii: "@")), at < slash {
            if let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")), colon < at {
                guard let user = PercentEncoding.decode(bytes[start..<colon]),
                    PercentEncoding.decodesToUTF8(bytes[(colon + 1)..<at])
                else { return false }
                username = user
                password = (colon + 1)..<at
            } else {
                guard let user = PercentEncoding.decode(bytes[start..<at]) else { return false }
                username = user
            }
            hostStart = at + 1
        }
        guard let host = PercentEncoding.decode(bytes[hostStart..<slash]) else { return false }
        self.host = host
        let pathStart = bytes[slash...].firstIndex { $0 != UInt8(ascii: "/") } ?? bytes.endIndex
        if pathStart < bytes.endIndex {
            var decoded = PercentEncoding.decodedBytes(bytes[pathStart...])
            while decoded.count > 1, decoded.last == UInt8(ascii: "/") { decoded.removeLast() }
            guard let path = String(validating: decoded, as: UTF8.self) else { return false }
            self.path = path
        }
        return true
    }
}

extension GitCredential: CustomReflectable {
    /// Every attribute but the secrets (the password and the refresh token), which show only
    /// whether git sent them: `print`, `dump`, string interpolation and the debugger go through this mirror.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "protocol": self.protocol as Any, "host": host as Any, "path": path as Any, "username": username as Any,
                "password": password == nil ? "nil" : "<hidden>", "passwordExpiryUTC": passwordExpiryUTC as Any,
                "oauthRefreshToken": oauthRefreshToken == nil ? "nil" : "<hidden>",
            ], displayStyle: .struct)
    }
}
