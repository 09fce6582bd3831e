internal import KeyringCrypto

/// The logins a docker `config.json` or a containers `auth.json` holds in the clear, and the
/// same file rewritten to name the helper instead.
///
/// Both files keep `"auths": {SERVER: {"auth": base64("user:password")}}`, or an
/// `"identitytoken"` (then docker's username is `<token>`, as a helper keeps it). Everything
/// is read from the file's bytes: no secret becomes a `String`, and the rewrite copies every
/// other member byte for byte.
package struct DockerConfigFile {
    /// One login the file holds: the server as written, docker's username, the secret's bytes (the caller wipes them).
    package struct Login {
        package var server: String
        package var username: String
        package var secret: [UInt8]
    }

    /// The file's bytes.
    package var bytes: [UInt8]
    /// Where the `auths` member's value lies, if there is one.
    var authsRange: Range<Int>?
    /// Where the `credHelpers` member's value lies, if there is one.
    var credHelpersRange: Range<Int>?
    /// The entries of `auths`: each server and where its object lies.
    var entries: [(server: String, value: Range<Int>)] = []

    /// Reads the members of a file's `bytes`.
    /// - Throws: ``DockerCredentialJSON/Refusal`` when it is not a JSON object, or `auths` is not one.
    package init(bytes: [UInt8]) throws {
        self.bytes = bytes
        for member in try DockerCredentialJSON.members(in: bytes) {
            if member.name == "auths" { authsRange = member.value }
            if member.name == "credHelpers" { credHelpersRange = member.value }
        }
        if let authsRange, !bytes[authsRange].starts(with: Array("null".utf8)) {
            entries = try DockerCredentialJSON.members(in: bytes, range: authsRange).map { ($0.name, $0.value) }
        }
    }

    /// The logins of `auths`, and why each other entry was passed over (server → reason; no value).
    package func logins() -> (logins: [Login], passedOver: [(String, String)]) {
        var logins: [Login] = []
        var passedOver: [(String, String)] = []
        for entry in entries {
            do {
                if let login = try login(entry.server, entry.value) {
                    logins.append(login)
                } else {
                    passedOver.append((entry.server, "it holds no login (no auth or identitytoken)"))
                }
            } catch let refusal as DockerCredentialJSON.Refusal {
                passedOver.append((entry.server, refusal.reason))
            } catch {
                passedOver.append((entry.server, "\(error)"))
            }
        }
        return (logins, passedOver)
    }

    private func login(_ server: String, _ range: Range<Int>) throws -> Login? {
        var members = try DockerCredentialJSON.strings(named: ["auth", "identitytoken"], in: bytes, range: range)
        defer { for name in members.keys { members[name]?.wipe() } }
        if let problem = DockerCredentialRecords.problem(withServer: server) {
            throw DockerCredentialJSON.Refusal(reason: problem)
        }
        if var token = members.removeValue(forKey: "identitytoken"), !token.isEmpty {
            return Login(server: server, username: "<token>", secret: token.takeAll())
        }
        guard var encoded = members["auth"], !encoded.isEmpty else { return nil }
        defer { encoded.wipe() }
        guard var decoded = Self.base64Decoded(encoded) else {
            throw DockerCredentialJSON.Refusal(reason: "auth is not base64")
        }
        defer { decoded.wipe() }
        guard let colon = decoded.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
            throw DockerCredentialJSON.Refusal(reason: "auth is not user:password")
        }
        let username = String(decoding: decoded[..<colon], as: UTF8.self)
        var secret: [UInt8] = []
        secret.reserveCapacity(decoded.count - colon - 1)
        secret.append(contentsOf: decoded[(colon + 1)...])
        return Login(server: server, username: username, secret: secret)
    }

    /// The file with every login of `servers` gone from `auths` and each of them named in
    /// `credHelpers` with `helper`; every other member as it was, byte for byte.
    package func rewritten(naming servers: [String], helper: String) throws -> [UInt8] {
        var helpers: [(String, String)] = []
        if let credHelpersRange {
            var existing = try DockerCredentialJSON.members(in: bytes, range: credHelpersRange).map(\.name)
            existing.removeAll { servers.contains($0) }
            // Their values are helper names, not secrets.
            let values = try DockerCredentialJSON.strings(named: existing, in: bytes, range: credHelpersRange)
            helpers = existing.compactMap { name in values[name].map { (name, String(decoding: $0, as: UTF8.self)) } }
        }
        helpers += servers.map { ($0, helper) }
        var helpersJSON = Array("{".utf8)
        for (index, (server, name)) in helpers.enumerated() {
            if index > 0 { helpersJSON.append(UInt8(ascii: ",")) }
            DockerCredentialJSON.appendString(server.utf8, to: &helpersJSON)
            helpersJSON.append(UInt8(ascii: ":"))
            DockerCredentialJSON.appendString(name.utf8, to: &helpersJSON)
        }
        helpersJSON.append(UInt8(ascii: "}"))
        // The entries not moved stay in `auths`, each as it was written.
        var authsJSON = Array("{".utf8)
        for entry in entries where !servers.contains(entry.server) {
            if authsJSON.count > 1 { authsJSON.append(UInt8(ascii: ",")) }
            DockerCredentialJSON.appendString(entry.server.utf8, to: &authsJSON)
            authsJSON.append(UInt8(ascii: ":"))
            authsJSON += bytes[entry.value]
        }
        authsJSON.append(UInt8(ascii: "}"))

        // Replaced from the end, so the earlier range still points where it did.
        var replacements: [(Range<Int>, [UInt8])] = []
        if let authsRange { replacements.append((authsRange, authsJSON)) }
        if let credHelpersRange {
            replacements.append((credHelpersRange, helpersJSON))
        } else {
            // A new member right after the opening brace.
            let brace = bytes.firstIndex(of: UInt8(ascii: "{"))!
            let empty = bytes[(brace + 1)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "}")
            replacements.append(
                ((brace + 1)..<(brace + 1), Array("\"credHelpers\":".utf8) + helpersJSON + (empty ? [] : Array(",".utf8))))
        }
        var output = bytes
        for (range, replacement) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            output.replaceSubrange(range, with: replacement)
        }
        return output
    }

    /// Standard base64 (with or without padding) decoded into bytes of their own; `nil` for other text.
    static func base64Decoded(_ text: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var ended = false
        for byte in text {
            if byte == UInt8(ascii: "=") {
                ended = true
                continue
            }
            guard !ended, let value = sextet(byte) else {
                output.wipe()
                return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        accumulator = 0
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes, leaving this array empty: a handover with no copy left behind.
    fileprivate mutating func takeAll() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &self)
        return taken
    }
}
