/// git's side of the protocol: `key=value` lines, up to a blank line or the end (git-credential(1)).
package enum GitCredentialInput {
    /// The longest value taken, in bytes: far above any token, far below what would hurt.
    package static let maximumValueBytes = 64 * 1024
    /// The most input read in all, so endless attributes the helper ignores cannot fill memory.
    package static let maximumInputBytes = 1024 * 1024

    /// The credential `bytes` describe.
    ///
    /// As git reads them: a line may end in CR LF; a value runs from the first `=` to the
    /// end of the line; a repeated attribute's last value wins; `url=` clears what came
    /// before and sets the parts it holds; attributes this helper does not use
    /// (`capability[]`, `wwwauth[]`, `state[]` …) are ignored. Refused, with nothing quoted
    /// (a value may be a password): a line without `=`, an empty name, a NUL or a carriage
    /// return anywhere but before the line's end (git 2.47.1 refuses one in a credential,
    /// CVE-2024-52006, and an older git would pass it on to other helpers), bytes that are
    /// not UTF-8, a value over ``maximumValueBytes``, input over ``maximumInputBytes``, a
    /// `url=` without a scheme, a `password_expiry_utc` that is not a number of seconds.
    /// - Throws: `CommandFailure` with exit status 65.
    package static func parse(_ bytes: [UInt8]) throws -> GitCredential {
        guard bytes.count <= maximumInputBytes else { throw refusal("the input is longer than 1 MiB") }
        var credential = GitCredential()
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { break }
            guard !line.contains(0) else { throw refusal("line \(lineNumber) holds a NUL character") }
            guard !line.contains(UInt8(ascii: "\r")) else {
                throw refusal("line \(lineNumber) holds a carriage return before its end")
            }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw refusal("line \(lineNumber) has no \"=\"")
            }
            guard equals > line.startIndex, let name = String(validating: line[..<equals], as: UTF8.self) else {
                throw refusal("line \(lineNumber) has no attribute name before \"=\", or one that is not UTF-8")
            }
            let valueBytes = line[line.index(after: equals)...]
            guard valueBytes.count <= maximumValueBytes else {
                throw refusal("the value of line \(lineNumber) is longer than 64 KiB")
            }
            guard let value = String(validating: valueBytes, as: UTF8.self) else {
                throw refusal("the value of line \(lineNumber) is not UTF-8 text")
            }
            switch name {
            case "protocol": credential.protocol = value
            case "host": credential.host = value
            case "path": credential.path = value
            case "username": credential.username = value
            case "password": credential.password = value
            case "password_expiry_utc":
                credential.passwordExpiryUTC = value
                guard credential.expiry != nil else {
                    throw refusal("the password_expiry_utc of line \(lineNumber) is not a number of seconds since 1970")
                }
            case "oauth_refresh_token": credential.oauthRefreshToken = value
            case "url":
                guard credential.setURL(value) else {
                    throw refusal("the url of line \(lineNumber) has no scheme:// or a part that is not UTF-8")
                }
            default: continue
            }
        }
        return credential
    }

    /// The lines of a `get` answer: the username, the password, and the expiry and refresh
    /// token when the record has them; `nil` when a value holds a line break, a carriage
    /// return or a NUL, which would forge an attribute or be refused by git (git itself
    /// refuses to write such a value).
    package static func answer(_ credential: GitCredential) -> String? {
        let fields = [
            ("username", credential.username), ("password", credential.password),
            ("password_expiry_utc", credential.passwordExpiryUTC), ("oauth_refresh_token", credential.oauthRefreshToken),
        ]
        var text = ""
        for case (let name, let value?) in fields {
            guard !unsafeField(value) else { return nil }
            text += "\(name)=\(value)\n"
        }
        return text
    }

    /// Whether `value` holds a byte git would take for the end of a line or refuse: LF, CR or NUL.
    package static func unsafeField(_ value: String) -> Bool {
        value.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == 0 }
    }

    private static func refusal(_ reason: String) -> CommandFailure {
        CommandFailure(message: "Refused git's input: \(reason); nothing was changed.", status: ExitStatus.invalidInput)
    }
}
