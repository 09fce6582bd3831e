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

    package init(
        protocol: String? = nil, host: String? = nil, path: String? = nil, username: String? = nil, password: String? = nil
    ) {
        self.protocol = `protocol`
        self.host = host
        self.path = path
        self.username = username
        self.password = password
    }

    /// The protocols this helper answers for; for any other git asks the next helper.
    package static let protocols: Set = ["http", "https"]

    /// Whether this is an http or https credential with a host: the only ones the helper handles.
    package var isWeb: Bool {
        guard let `protocol`, let host else { return false }
        return Self.protocols.contains(`protocol`) && !host.isEmpty
    }

    /// Whether a stored credential `have` answers this one, as git's own `credential_match`
    /// decides: every attribute sent here must be equal there; one not sent matches anything.
    package func matches(_ have: GitCredential) -> Bool {
        func check(_ want: String?, _ have: String?) -> Bool {
            guard let want else { return true }
            // Compared as bytes, as git's strcmp does: Swift's == would equate NFC and NFD forms.
            return have.map { Array($0.utf8) == Array(want.utf8) } ?? false
        }
        return check(`protocol`, have.protocol) && check(host, have.host) && check(path, have.path)
            && check(username, have.username)
    }

    /// Sets the parts of `url` as git does for a `url=` line: everything said before is
    /// cleared, then protocol, username and password, host (with its port) and path are
    /// taken from the URL, percent-decoded; the path loses its leading and trailing slashes.
    /// - Returns: `false` when `url` has no `scheme://` or a part does not decode to UTF-8.
    package mutating func setURL(_ url: String) -> Bool {
        self = GitCredential()
        guard let schemeEnd = url.firstRange(of: "://") else { return false }
        `protocol` = String(url[..<schemeEnd.lowerBound])
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let colon = userInfo.firstIndex(of: ":")
            guard let user = PercentEncoding.decode(userInfo[..<(colon ?? userInfo.endIndex)]) else { return false }
            username = user
            if let colon {
                guard let secret = PercentEncoding.decode(userInfo[userInfo.index(after: colon)...]) else { return false }
                password = secret
            }
            authority = authority[authority.index(after: at)...]
        }
        guard let host = PercentEncoding.decode(authority) else { return false }
        self.host = host
        let trimmed = rest[authorityEnd...].drop { $0 == "/" }
        let path = String(trimmed.reversed().drop { $0 == "/" }.reversed())
        if !path.isEmpty {
            guard let decoded = PercentEncoding.decode(Substring(path)) else { return false }
            self.path = decoded
        }
        return true
    }
}

extension GitCredential: CustomReflectable {
    /// Every attribute but the password, which shows only whether git sent one: `print`,
    /// `dump`, string interpolation and the debugger go through this mirror.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "protocol": self.protocol as Any, "host": host as Any, "path": path as Any, "username": username as Any,
                "password": password == nil ? "nil" : "<hidden>",
            ], displayStyle: .struct)
    }
}
