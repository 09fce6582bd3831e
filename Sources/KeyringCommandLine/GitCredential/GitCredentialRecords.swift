import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// git's credentials as records of one service, `git-credential`, and the helper's
/// three actions on them, matched as git's own helpers match.
///
/// A record's key is the credential as a URL with its username,
/// `protocol://username@host[/path]` (``GitCredentialKey``: each part percent-encoded, so
/// it splits back, byte by byte, into exactly the parts it was made of): several usernames
/// per host coexist, and `swift-keyring list --service git-credential` shows one line a
/// credential. Its URL is the remote, `protocol://host[/path]`; its password is git's
/// password or token, with the expiry and refresh token git gave (``GitCredentialSecret``).
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
    package static func key(of credential: GitCredential) -> String { GitCredentialKey.key(of: credential) }

    /// The credential a record key names (no password), or `nil` for a key this helper did not write.
    package static func credential(ofKey key: String) -> GitCredential? { GitCredentialKey.credential(ofKey: key) }

    /// Seconds since 1970 UTC, the clock expiries are read against.
    package static func currentTime() -> Int64 { Int64(time(nil)) }

    /// A record `get` answers with: the credential its key names, its stored secret's bytes (the
    /// password, expiry and refresh token) and where each lies in them (``GitCredentialSecret/Parts``).
    package struct Found {
        /// The protocol, host, path and username of the record's key, and the expiry; no secret.
        package var credential: GitCredential
        /// The record's stored secret, in ``GitCredentialSecret``'s layout: the caller wipes it.
        package var secret: [UInt8]
        /// Where the password, expiry and refresh token lie in `secret`.
        package var parts: GitCredentialSecret.Parts
    }

    /// `get`: the stored credential that answers `want`, with its username, password, and the
    /// expiry and refresh token stored with it; `nil` when none does, or for a protocol other
    /// than http and https.
    ///
    /// With a username, that user's record; without one, the record of that protocol and
    /// host (and path, when git sends one) whose key sorts first, byte by byte. A record whose
    /// expiry has passed is passed over, and so is one whose username, password or refresh
    /// token git could not take (a line break, carriage return or NUL): `report` is told
    /// which key, never the value.
    package static func get(
        _ want: GitCredential, in keyring: Keyring, now: Int64 = currentTime(), report: (String) -> Void = { Console.error($0) }
    ) throws -> GitCredential? {
        guard var found = try find(want, in: keyring, now: now, report: report) else { return nil }
        defer { found.secret.wipe() }
        var have = found.credential
        // Cut at a line break or after an ASCII prefix, and checked as UTF-8 when read.
        have.password = String(decoding: found.secret[found.parts.password], as: UTF8.self)
        have.oauthRefreshToken = found.parts.refreshToken.map { String(decoding: found.secret[$0], as: UTF8.self) }
        return have
    }

    /// `get` with the record's secret as bytes, which the caller wipes (the helper writes its
    /// answer from them, ``GitCredentialInput/answer(username:secret:parts:)``): as ``get(_:in:now:report:)``.
    package static func find(
        _ want: GitCredential, in keyring: Keyring, now: Int64 = currentTime(), report: (String) -> Void = { Console.error($0) }
    ) throws -> Found? {
        guard want.isWeb else { return nil }
        var passedOver: [[UInt8]] = []
        if want.username != nil {
            // The common case, one read: the record git stored for exactly these parts.
            var exact = want
            exact.password = nil
            let key = key(of: exact)
            if let secret = try keyring.passwordBytes(forKey: key) {
                if let found = usable(key: key, secret: secret, now: now, report: report) { return found }
                passedOver.append(Array(key.utf8))
            }
        }
        // One listing and one read (one search on the Secret Service, where a list and then a
        // lookup search twice); a record removed since the listing is passed over, and so is
        // each one not usable, in the order of the keys.
        while true {
            let found = try keyring.chosenPasswordBytes { keys in
                matching(want, amongKeys: keys).map(\.0).filter { key in !passedOver.contains { key.utf8.elementsEqual($0) } }
            }
            guard let found else { return nil }
            if let have = usable(key: found.key, secret: found.password, now: now, report: report) { return have }
            passedOver.append(Array(found.key.utf8))
        }
    }

    /// The record `key` names with its `secret`, or `nil` (said to `report`, but for an expiry) when
    /// its key is not one this helper wrote, its secret is not in ``GitCredentialSecret``'s layout,
    /// a value holds what git cannot take, or its expiry has passed. A secret not answered with is wiped.
    private static func usable(key: String, secret: consuming [UInt8], now: Int64, report: (String) -> Void) -> Found? {
        var secret = consume secret
        guard var have = credential(ofKey: key) else {
            secret.wipe()
            return nil
        }
        // Only keys this helper wrote get here: controls are percent-encoded in them.
        guard let parts = GitCredentialSecret.parts(of: secret) else {
            secret.wipe()
            report("Passed over the record \(key): its password holds a line break, which git cannot take.")
            return nil
        }
        // Not a secret: a `String`, to be read as a number.
        have.passwordExpiryUTC = parts.expiry.map { String(decoding: secret[$0], as: UTF8.self) }
        let fields: [(String, Bool)] = [
            ("username", have.username.map(GitCredentialInput.unsafeField) ?? false),
            ("password", GitCredentialInput.unsafeField(secret[parts.password])),
            ("oauth_refresh_token", parts.refreshToken.map { GitCredentialInput.unsafeField(secret[$0]) } ?? false),
            ("password_expiry_utc", parts.expiry.map { GitCredentialInput.unsafeField(secret[$0]) } ?? false),
        ]
        for case (let name, true) in fields {
            secret.wipe()
            report(
                "Passed over the record \(key): its \(name) holds a line break, carriage return or NUL, which git cannot take.")
            return nil
        }
        guard !have.hasExpired(at: now) else {
            secret.wipe()
            return nil
        }
        return Found(credential: have, secret: secret, parts: parts)
    }

    /// `store`: keeps git's credential, with its expiry and refresh token, replacing the one of
    /// the same protocol, host, path and username. Returns `false` (nothing stored) when it is
    /// not an http or https credential with a username and a password, which git's own helpers
    /// ignore too.
    /// - Throws: `CommandFailure` when the host and path make no URL; a keyring error otherwise.
    @discardableResult
    package static func store(_ credential: GitCredential, in keyring: Keyring) throws -> Bool {
        guard let password = credential.password else { return false }
        let expiry = credential.passwordExpiryUTC
        let token = credential.oauthRefreshToken
        let secret = { GitCredentialSecret.encode(password: password.utf8, expiry: expiry, refreshToken: token?.utf8) }
        return try store(credential, secret: secret, in: keyring)
    }

    /// `store` of what git sent, its password and refresh token taken from `input` (the bytes
    /// `request` was read from) as bytes, never a `String`; the record's copy is wiped once written.
    @discardableResult
    package static func store(_ request: GitCredentialRequest, from input: [UInt8], in keyring: Keyring) throws -> Bool {
        guard request.hasPassword else { return false }
        return try store(request.credential, secret: { request.secret(in: input) }, in: keyring)
    }

    /// Both `store`s: `credential`'s parts but its secrets, and `secret` (made once the
    /// credential is known to be stored) as the record's password.
    private static func store(_ credential: GitCredential, secret: () -> [UInt8], in keyring: Keyring) throws -> Bool {
        guard credential.isWeb, let username = credential.username else { return false }
        guard let url = GitCredentialKey.url(of: credential) else {
            throw CommandFailure(
                message: "The host and path git sent make no URL; nothing was stored.", status: ExitStatus.invalidInput)
        }
        let record = try Credentials(username: username.isEmpty ? emptyUsername : username, password: "", url: url)
        var stored = credential
        stored.password = nil
        stored.oauthRefreshToken = nil
        try keyring.set(record, passwordBytes: secret(), forKey: key(of: stored))
        return true
    }

    /// `erase`: removes every record that matches `want`, expired ones too; when git sends a
    /// password, only those whose stored password is that one, so a stale rejection never
    /// removes a credential stored since. Returns how many were removed.
    @discardableResult
    package static func erase(_ want: GitCredential, in keyring: Keyring) throws -> Int {
        try erase(want, password: want.password.map { Array($0.utf8) }, in: keyring)
    }

    /// `erase` of what git sent, its password compared as bytes from `input` (the bytes
    /// `request` was read from), never made a `String`.
    @discardableResult
    package static func erase(_ request: GitCredentialRequest, from input: [UInt8], in keyring: Keyring) throws -> Int {
        try request.withPassword(in: input) { password in try erase(request.credential, password: password, in: keyring) }
    }

    /// Both `erase`s: `want`'s parts but its secrets, and the `password` git sent, if any.
    private static func erase(
        _ want: GitCredential, password: (some Collection<UInt8>)?, in keyring: Keyring
    ) throws -> Int {
        guard want.isWeb else { return 0 }
        var removed = 0
        for (key, _) in try matching(want, in: keyring) {
            if let password {
                guard var secret = try keyring.passwordBytes(forKey: key) else { continue }
                let same = holds(secret, password)
                secret.wipe()
                guard same else { continue }
            }
            if try keyring.remove(forKey: key) { removed += 1 }
        }
        return removed
    }

    /// Whether a stored `secret`'s password is `password`; a secret not in ``GitCredentialSecret``'s
    /// layout (a password with a line break, put there by something else) is compared whole.
    /// A function of its own, so no slice of `secret` outlives it: one would make the caller's
    /// wipe copy the bytes and wipe the copy.
    private static func holds(_ secret: [UInt8], _ password: some Collection<UInt8>) -> Bool {
        guard let parts = GitCredentialSecret.parts(of: secret) else { return secret.elementsEqual(password) }
        return secret[parts.password].elementsEqual(password)
    }

    /// The records whose keys match `want`, in the byte order of their keys.
    private static func matching(_ want: GitCredential, in keyring: Keyring) throws -> [(String, GitCredential)] {
        matching(want, amongKeys: try keyring.list().map(\.key))
    }

    /// The keys among `keys` that match `want`, in byte order, each with the credential it names.
    private static func matching(_ want: GitCredential, amongKeys keys: [String]) -> [(String, GitCredential)] {
        keys
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .compactMap { key in credential(ofKey: key).flatMap { want.matches($0) ? (key, $0) : nil } }
    }
}
