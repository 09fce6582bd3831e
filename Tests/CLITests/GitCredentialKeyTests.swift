import Foundation
import KeyringCommandLine
import SwiftKeyring
import Testing

/// What the helper stores and what it answers are exact inverses, byte for byte, over text
/// that joins into one `Character` with its neighbour (Prepend letters, combining marks,
/// ZWJ, regional indicators) next to every delimiter a key or URL has (`@`, `/`, `%`, `:`,
/// `[`, `]`): a record answers only the protocol, host, port, path and username it was
/// stored for. Driven on `GitCredentialRecords` over a memory store, so every pair of
/// remotes can be tried; `GitCredentialHelperRemoteTests` drives the same through git.
@Suite("git credential keys: one remote, one record, both ways")
struct GitCredentialKeyTests {
    /// Usernames: Prepend U+0600–U+0605 and U+0D4E before an `@`, Extend U+0301 after one,
    /// ZWJ, regional indicators, the delimiters raw and percent-encoded, the empty one.
    static let usernames = [
        "x\u{0D4E}", "x", "x\u{0D4E}@github.com/p", "\u{0600}@", "\u{0605}", "@\u{0301}", "a:b", "a%40b", "a@b", "",
        "\u{200D}@", "🇺🇸@", "\u{1F1FA}", "[u]",
    ]
    /// Hosts, with a port, an IPv6 literal, NFC and NFD forms of one name, and CR LF.
    static let hosts = [
        "github.com", "evil.example", "github.com:443", "[::1]:8080", "\u{0D4E}@evil.example", "github.com\u{0301}",
        "\u{00E9}vil.example", "e\u{0301}vil.example", "h%2Fx", "h\r\nx", "\u{0600}:1",
    ]
    /// Paths, and none (`nil`): `@` and `/` raw where a key keeps them raw, `%`, brackets.
    static let paths: [String?] = [
        nil, "p@evil.example/q", "p", "p/", "%40", "\u{0605}/q", "[x]:y", "\u{200D}/", "a\u{0301}@b", "🇺🇸/🇺🇸",
    ]

    static var remotes: [GitCredential] {
        var all: [GitCredential] = []
        for scheme in ["https", "http"] {
            for username in usernames {
                for host in hosts {
                    for path in paths where scheme == "https" || (path == nil && username.count < 3) {
                        all.append(GitCredential(protocol: scheme, host: host, path: path, username: username))
                    }
                }
            }
        }
        return all
    }

    /// git's `credential_match`, written here on bytes without the helper's code: each part
    /// sent must be byte-equal to the stored one.
    static func answers(_ stored: GitCredential, _ want: GitCredential) -> Bool {
        func same(_ want: String?, _ have: String?) -> Bool {
            guard let want else { return true }
            return have.map { Array($0.utf8) == Array(want.utf8) } ?? false
        }
        return same(want.protocol, stored.protocol) && same(want.host, stored.host) && same(want.path, stored.path)
            && same(want.username, stored.username)
    }

    static func bytesEqual(_ a: String?, _ b: String?) -> Bool { a.map { Array($0.utf8) } == b.map { Array($0.utf8) } }

    static func sameParts(_ a: GitCredential, _ b: GitCredential) -> Bool {
        bytesEqual(a.protocol, b.protocol) && bytesEqual(a.host, b.host) && bytesEqual(a.path, b.path)
            && bytesEqual(a.username, b.username)
    }

    static func keyring() throws -> Keyring { try Keyring(service: GitCredentialRecords.service, store: MemoryStore()) }

    static func password(of remote: GitCredential) -> String { "pw-\(Array(GitCredentialKey.key(of: remote).utf8))" }

    @Test("Every key splits back into exactly the parts it was made of")
    func keyRoundTrip() {
        for remote in Self.remotes {
            let key = GitCredentialKey.key(of: remote)
            let parsed = GitCredentialKey.credential(ofKey: key)
            #expect(parsed.map { Self.sameParts($0, remote) } == true, "\(remote) → \(key) → \(String(describing: parsed))")
        }
    }

    @Test("Keys the helper did not write answer nothing, however they would split")
    func foreignKeys() {
        for key in [
            "https://al%69ce@github.com", "https://a@b@github.com", "https://x@github.com/%7E", "https://x@github.com/a%",
            "https://x@github.com/a%2", "https://x@github.com:443%2f", "https://x@", "https://x", "ftp://x@github.com",
            "https\u{0301}://x@github.com", "https://x\u{0D4E}@github.com@evil", "https://x@github.com\u{7}",
        ] {
            #expect(GitCredentialKey.credential(ofKey: key) == nil, "\(Array(key.utf8)) was taken for a credential")
        }
        // The issue's record, written before the fix: read as bytes, it names github.com, never evil.example.
        let old = GitCredentialKey.credential(ofKey: "https://x\u{0D4E}@github.com/p@evil.example/q")
        #expect(old.map { Self.bytesEqual($0.host, "github.com") && Self.bytesEqual($0.path, "p@evil.example/q") } == true)
    }

    @Test("With every remote stored, each get answers its own record, and a get without a username only a matching one")
    func allStored() throws {
        let keyring = try Self.keyring()
        let remotes = Self.remotes
        for remote in remotes {
            var stored = remote
            stored.password = Self.password(of: remote)
            #expect(try GitCredentialRecords.store(stored, in: keyring), "\(remote) was not stored")
        }
        #expect(try keyring.list().count == remotes.count, "two remotes share a record")
        for (index, remote) in remotes.enumerated() {
            let found = try GitCredentialRecords.get(remote, in: keyring, report: { _ in })
            let own = found.map { Self.sameParts($0, remote) && $0.password == Self.password(of: remote) } ?? false
            #expect(own, "get \(remote) answered another record, or none")
            // A get without a username lists every record: a sample of them keeps the run short.
            guard index % 7 == 0 else { continue }
            var anyone = remote
            anyone.username = nil
            let chosen = try #require(try GitCredentialRecords.get(anyone, in: keyring, report: { _ in }))
            #expect(Self.answers(chosen, anyone), "get \(anyone) answered \(chosen)")
            let itsOwn = chosen.password == Self.password(of: chosen)
            #expect(itsOwn, "the password of \(chosen) is another record's")
        }
    }

    @Test("One remote stored: a get or erase for any other remote in the set answers or removes nothing")
    func oneStored() throws {
        let remotes = Self.remotes
        let stride = Swift.stride(from: 0, to: remotes.count, by: 23).map { remotes[$0] }
        let issue = GitCredential(protocol: "https", host: "github.com", path: "p@evil.example/q", username: "x\u{0D4E}")
        for stored in stride + [issue] {
            let keyring = try Self.keyring()
            var record = stored
            record.password = "the-stored-password"
            try GitCredentialRecords.store(record, in: keyring)
            for want in remotes {
                for asked in [want, GitCredential(protocol: want.protocol, host: want.host, path: want.path)] {
                    let found = try GitCredentialRecords.get(asked, in: keyring, report: { _ in })
                    #expect(
                        (found != nil) == Self.answers(stored, asked), "stored \(stored), get \(asked) answered \(found != nil)")
                    if let found { #expect(Self.sameParts(found, stored)) }
                }
                guard !Self.answers(stored, want) else { continue }
                #expect(try GitCredentialRecords.erase(want, in: keyring) == 0, "stored \(stored), erase \(want) removed it")
            }
            #expect(try keyring.list().count == 1)
        }
    }

    /// Every pair, at the two decisions a get makes: which parts a stored key names, and
    /// whether they answer what git asks (`oneStored` drives a sample of the pairs end to end).
    @Test("For every pair of remotes, a stored key answers a get exactly when git's credential_match says so")
    func everyPair() {
        let remotes = Self.remotes
        let named = remotes.map { GitCredentialKey.credential(ofKey: GitCredentialKey.key(of: $0)) }
        var wrong = 0
        for want in remotes {
            let anyone = GitCredential(protocol: want.protocol, host: want.host, path: want.path)
            for (stored, parsed) in zip(remotes, named) {
                guard let parsed else {
                    wrong += 1
                    continue
                }
                for asked in [want, anyone] where asked.matches(parsed) != Self.answers(stored, asked) {
                    wrong += 1
                    if wrong < 5 { Issue.record("stored \(stored), asked \(asked): decided \(asked.matches(parsed))") }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) of \(remotes.count * remotes.count * 2) decisions differ from git's")
    }

    @Test("A url= line splits as git splits it, by bytes, whatever joins its delimiters")
    func urlLines() {
        func encoded(_ text: String) -> String { PercentEncoding.encode(text, asciiOnly: true) }
        for remote in Self.remotes {
            guard let path = remote.path, !path.hasPrefix("/"), !path.hasSuffix("/") else { continue }
            let url =
                "\(remote.protocol!)://\(encoded(remote.username!)):\(encoded("pw:@"))@\(encoded(remote.host!))/"
                + path.split(separator: "/", omittingEmptySubsequences: false).map { encoded(String($0)) }.joined(separator: "/")
            var parsed = GitCredential()
            let split = parsed.setURL(url)
            #expect(split)
            #expect(Self.sameParts(parsed, remote) && parsed.password == "pw:@", "\(url) → \(parsed)")
        }
        // Raw, as a person would write it: the first "@" before the host's end ends the username, as in git.
        var raw = GitCredential()
        let first = raw.setURL("https://x\u{0D4E}@github.com/p@evil.example/q/")
        #expect(first)
        #expect(Self.bytesEqual(raw.username, "x\u{0D4E}") && Self.bytesEqual(raw.host, "github.com"))
        #expect(Self.bytesEqual(raw.path, "p@evil.example/q"))
        let second = raw.setURL("https://\u{0600}@evil.example?x=@github.com")
        #expect(second)
        #expect(Self.bytesEqual(raw.username, "\u{0600}") && Self.bytesEqual(raw.host, "evil.example"))
    }
}
