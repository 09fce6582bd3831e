import SwiftKeyring

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
        try request(bytes).credential(in: bytes)
    }

    /// ``parse(_:)`` with the password and refresh token left in `bytes`: the request says where
    /// they lie (checked as UTF-8 without a `String` made), so `store` can keep them as bytes.
    /// - Throws: as ``parse(_:)``.
    package static func request(_ bytes: [UInt8]) throws -> GitCredentialRequest {
        guard bytes.count <= maximumInputBytes else { throw refusal("the input is longer than 1 MiB") }
        var request = GitCredentialRequest()
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
            guard Keyring.isUTF8(valueBytes) else { throw refusal("the value of line \(lineNumber) is not UTF-8 text") }
            // The secrets stay where they are: a `String` of one could not be wiped.
            switch name {
            case "password":
                request.credential.password = nil
                request.password = valueBytes.indices
                request.passwordIsPercentEncoded = false
                continue
            case "oauth_refresh_token":
                request.credential.oauthRefreshToken = nil
                request.refreshToken = valueBytes.indices
                continue
            case "url":
                // Everything said before is cleared, the secrets left in the input too. A password
                // in the URL stays there as well, percent-encoded (made text, the line would hold it).
                request = GitCredentialRequest()
                var password: Range<Int>?
                guard request.credential.setURL(valueBytes, password: &password) else {
                    throw refusal("the url of line \(lineNumber) has no scheme:// or a part that is not UTF-8")
                }
                request.password = password
                request.passwordIsPercentEncoded = password != nil
                continue
            default: break
            }
            let value = String(decoding: valueBytes, as: UTF8.self)
            switch name {
            case "protocol": request.credential.protocol = value
            case "host": request.credential.host = value
            case "path": request.credential.path = value
            case "username": request.credential.username = value
            case "password_expiry_utc":
                request.credential.passwordExpiryUTC = value
                guard request.credential.expiry != nil else {
                    throw refusal("the password_expiry_utc of line \(lineNumber) is not a number of seconds since 1970")
                }
            default: continue
            }
        }
        return request
    }

    /// The lines of a `get` answer: `username`, then from the record's stored `secret` (whose
    /// ``GitCredentialSecret/Parts`` are `parts`) the password, and the expiry and refresh
    /// token when it has them; `nil` when a value holds a line break, a carriage return or a
    /// NUL, which would forge an attribute or be refused by git (git itself refuses to write
    /// such a value). Made as bytes in one buffer of the exact size, never a `String`, so the
    /// caller can write it and wipe it.
    package static func answer(username: String, secret: [UInt8], parts: GitCredentialSecret.Parts) -> [UInt8]? {
        let fields: [(name: String, value: ArraySlice<UInt8>)] =
            [("username", ArraySlice(username.utf8)), ("password", secret[parts.password])]
            + [("password_expiry_utc", parts.expiry), ("oauth_refresh_token", parts.refreshToken)].compactMap { field in
                field.1.map { (field.0, secret[$0]) }
            }
        guard !fields.contains(where: { unsafeField($0.value) }) else { return nil }
        var lines: [UInt8] = []
        lines.reserveCapacity(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.count + 2 })
        for field in fields {
            lines.append(contentsOf: field.name.utf8)
            lines.append(UInt8(ascii: "="))
            lines.append(contentsOf: field.value)
            lines.append(UInt8(ascii: "\n"))
        }
        return lines
    }

    /// Whether `value` holds a byte git would take for the end of a line or refuse: LF, CR or NUL.
    package static func unsafeField(_ value: String) -> Bool { unsafeField(value.utf8) }

    /// Whether `value`'s bytes hold one git would take for the end of a line or refuse: LF, CR or NUL.
    package static func unsafeField(_ value: some Sequence<UInt8>) -> Bool {
        value.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == 0 }
    }

    private static func refusal(_ reason: String) -> CommandFailure {
        CommandFailure(message: "Refused git's input: \(reason); nothing was changed.", status: ExitStatus.invalidInput)
    }
}
