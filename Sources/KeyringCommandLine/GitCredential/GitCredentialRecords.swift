import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// git's credentials as records of one service, `git-credential`, and the helper's
/// three actions on them, matched as git's own helpers match.
///
/// A record's key is the credential as a URL with its username,
/// `protocol://username@host[/path]` (each part percent-encoded, so it splits back
/// exactly): several usernames per host coexist, and `swift-keyring list --service
/// git-credential` shows one line a credential. Its URL is the remote,
/// `protocol://host[/path]`; its password is git's password or token.
///
/// git may store an empty username (token-only hosts), which a record cannot hold: the
/// record's username is then ``emptyUsername``, and the key, whose username part is
/// empty (`https://@host`), says what git gave. Every action reads the username from the
/// key, so `get` answers `username=` exactly as git stored it.
package enum GitCredentialRecords {
    /// The service of git's records: never an app's, so the two never collide.
    package static let service = "git-credential"
    /// The record's username when git's is empty (the key holds the real, empty one).
    package static let emptyUsername = "(empty)"

    /// The record key of a credential with protocol, host and username; `path` only when given.
    package static func key(of credential: GitCredential) -> String {
        var key = (credential.protocol ?? "") + "://"
        key += PercentEncoding.encode(credential.username ?? "") + "@"
        key += PercentEncoding.encode(credential.host ?? "", keeping: hostCharacters)
        if let path = credential.path { key += "/" + PercentEncoding.encode(path, keeping: pathCharacters) }
        return key
    }

    /// The credential a record key names (no password), or `nil` for a key this helper did not write.
    package static func credential(ofKey key: String) -> GitCredential? {
        guard let schemeEnd = key.firstRange(of: "://") else { return nil }
        let scheme = String(key[..<schemeEnd.lowerBound])
        let rest = key[schemeEnd.upperBound...]
        guard GitCredential.protocols.contains(scheme), let at = rest.firstIndex(of: "@"),
            let username = PercentEncoding.decode(rest[..<at])
        else { return nil }
        let hostAndPath = rest[rest.index(after: at)...]
        let slash = hostAndPath.firstIndex(of: "/")
        guard let host = PercentEncoding.decode(hostAndPath[..<(slash ?? hostAndPath.endIndex)]), !host.isEmpty else {
            return nil
        }
        var credential = GitCredential(protocol: scheme, host: host, username: username)
        if let slash {
            guard let path = PercentEncoding.decode(hostAndPath[hostAndPath.index(after: slash)...]) else { return nil }
            credential.path = path
        }
        return credential
    }

    /// The remote's URL, `protocol://host[/path]`, as the record's URL.
    static func url(of credential: GitCredential) -> URL? {
        var text = (credential.protocol ?? "") + "://"
        text += PercentEncoding.encode(credential.host ?? "", keeping: hostCharacters, asciiOnly: true)
        if let path = credential.path { text += "/" + PercentEncoding.encode(path, keeping: pathCharacters, asciiOnly: true) }
        return URL(string: text)
    }

    /// `host:port` and an IPv6 literal's brackets stay readable in a key.
    private static let hostCharacters: Set<Character> = [":", "[", "]"]
    /// A URL path's own characters (RFC 3986 `pchar` and `/`) stay readable in a key.
    private static let pathCharacters: Set<Character> = ["/", ":", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "="]

    /// `get`: the stored credential that answers `want`, with its username and password;
    /// `nil` when none does, or for a protocol other than http and https.
    ///
    /// With a username, that user's record; without one, the record of that protocol and
    /// host (and path, when git sends one) whose key sorts first, byte by byte.
    package static func get(_ want: GitCredential, in keyring: Keyring) throws -> GitCredential? {
        try answer(
            want, password: { try keyring.password(forKey: $0) }, chosen: { try keyring.chosenPassword(choosing: $0) })
    }

    /// `get(_:in:)` read straight from the Secret Service before any keyring is opened
    /// (`KeyringOpener.directPassword`); `nil` when `get(_:in:)` must answer.
    package static func directGet(_ want: GitCredential, _ options: StoreSettings) -> GitCredential? {
        answer(
            want, password: { KeyringOpener.directPassword(options, key: $0) },
            chosen: { KeyringOpener.directChosenPassword(options, choosing: $0) })
    }

    /// `get`'s answer, from a keyring or a direct read: the password under `key`, and the first
    /// record `chosen` picks among the keys it is shown.
    private static func answer(
        _ want: GitCredential, password: (String) throws -> String?,
        chosen: (([String]) -> [String]) throws -> (key: String, password: String)?
    ) rethrows -> GitCredential? {
        guard want.isWeb else { return nil }
        if want.username != nil {
            // The common case, one read: the record git stored for exactly these parts.
            var exact = want
            exact.password = nil
            if let password = try password(key(of: exact)) {
                exact.password = password
                return exact
            }
        }
        // One listing and one read (one search on the Secret Service, where a list and then a
        // lookup search twice); a record removed since the listing is passed over.
        let found = try chosen { keys in matching(want, amongKeys: keys).map(\.0) }
        guard let found, var have = credential(ofKey: found.key) else { return nil }
        have.password = found.password
        return have
    }

    /// `store`: keeps git's credential, replacing the one of the same protocol, host, path and
    /// username. Returns `false` (nothing stored) when it is not an http or https credential
    /// with a username and a password, which git's own helpers ignore too.
    /// - Throws: `CommandFailure` when the host and path make no URL; a keyring error otherwise.
    @discardableResult
    package static func store(_ credential: GitCredential, in keyring: Keyring) throws -> Bool {
        guard credential.isWeb, let username = credential.username, let password = credential.password else { return false }
        guard let url = url(of: credential) else {
            throw CommandFailure(
                message: "The host and path git sent make no URL; nothing was stored.", status: ExitStatus.invalidInput)
        }
        let record = try Credentials(username: username.isEmpty ? emptyUsername : username, password: password, url: url)
        var stored = credential
        stored.password = nil
        try keyring.set(record, forKey: key(of: stored))
        return true
    }

    /// `erase`: removes every record that matches `want`; when git sends a password, only
    /// those whose stored password is that one, so a stale rejection never removes a
    /// credential stored since. Returns how many were removed.
    @discardableResult
    package static func erase(_ want: GitCredential, in keyring: Keyring) throws -> Int {
        guard want.isWeb else { return 0 }
        var removed = 0
        for (key, _) in try matching(want, in: keyring) {
            if let password = want.password {
                guard let stored = try keyring.password(forKey: key), Array(stored.utf8) == Array(password.utf8) else { continue }
            }
            if try keyring.remove(forKey: key) { removed += 1 }
        }
        return removed
    }

    /// The records whose keys match `want`, in the byte order of their keys.
    private static func matching(_ want: GitCredential, in keyring: Keyring) throws -> [(String, GitCredential)] {
        matching(want, amongKeys: try keyring.list().map(\.key))
    }

    /// The keys among `keys` that match `want`, in byte order, each with the credential it names.
    private static func matching(_ want: GitCredential, amongKeys keys: [String]) -> [(String, GitCredential)] {
        keys
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .compactMap { key in credential(ofKey: key).flatMap { want.matches($0) ? (key, $0) : nil } }
    }
}
