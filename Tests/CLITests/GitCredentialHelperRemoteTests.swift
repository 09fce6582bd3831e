import Foundation
import KeyringTestSupport
import Testing

/// The helper driven by the real git: a token answers only the remote it was stored for,
/// git never gets a line it would refuse, and expiring and refresh tokens are kept.
@Suite("git credential helper: remotes, refused values, expiry and refresh tokens")
struct GitCredentialHelperRemoteTests {
    /// The issue's reproduction: a URL whose username ends in U+0D4E (which joins the `@`
    /// after it into one `Character`) and whose path holds `@evil.example/`, stored under
    /// `credential.useHttpPath`. evil.example must get nothing, and erase nothing.
    @Test("github.com's token is never answered to, or erased by, evil.example", arguments: GitHelperStore.allCases)
    func hostileRemote(store: GitHelperStore) throws {
        let sandbox = try Sandbox()
        var git = GitClient(sandbox: sandbox, storeEnvironment: try store.environment(sandbox))
        git.settings = ["credential.useHttpPath=true"]
        let github = GitCredentialHelperTests.uniqueHost()
        let evil = GitCredentialHelperTests.uniqueHost()
        let username = "x\u{0D4E}"
        let path = "p@\(evil)/q"
        defer { _ = try? git.credential("reject", ["protocol=https", "host=\(github)"]) }
        let stored = ["protocol=https", "host=\(github)", "path=\(path)", "username=\(username)", "password=GH-token"]
        let approve = try git.credential("approve", stored)
        #expect(approve.status == 0, "approve failed: \(approve.stderr)")

        for asked in [
            ["protocol=https", "host=\(evil)"], ["protocol=https", "host=\(evil)", "path=q"],
            ["url=https://\(evil)/q"], ["protocol=https", "host=\(evil)", "username=\(username)@\(github)/p"],
            ["protocol=https", "host=\(github)", "path=p"],
        ] {
            let found = try GitCredentialHelperTests.fill(git, asked)
            #expect(found == nil, "\(asked) was answered by \(github)'s record")
        }
        #expect(try git.credential("reject", ["protocol=https", "host=\(evil)"]).status == 0)
        #expect(try git.credential("reject", ["protocol=https", "host=\(evil)", "path=q"]).status == 0)
        let own = try GitCredentialHelperTests.fill(git, ["protocol=https", "host=\(github)", "path=\(path)"])
        let answered = own.map { $0.username == username && $0.password == "GH-token" } ?? false
        #expect(answered, "\(github)'s own record was not answered to it after evil.example's erase")
        // The same through git's own URL parsing, as a clone would ask.
        let encodedPath = "p%40\(evil)/q"
        let byURL = try GitCredentialHelperTests.fill(git, ["url=https://\(github)/\(encodedPath)"])
        #expect(byURL.map { $0.password == "GH-token" } ?? false, "the URL of \(github)'s remote got no answer")
    }

    /// Values with grapheme-joining text next to each delimiter, stored and asked for through
    /// the helper: each get answers only its own record (the memory-store property tests try every pair).
    @Test("Remotes whose parts join delimiters into one Character each answer only themselves")
    func joiningRemotes() throws {
        let sandbox = try Sandbox()
        var git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        git.settings = ["credential.useHttpPath=true"]
        let remotes: [(host: String, path: String, username: String)] = [
            ("github.com", "p@evil.example/q", "x\u{0D4E}"),
            ("evil.example", "q", "x\u{0D4E}@github.com/p"),
            ("\u{0600}@evil.example", "\u{0605}/q", "\u{0600}@"),
            ("github.com:443", "a\u{0301}@b", "@\u{0301}"),
            ("[::1]:8080", "🇺🇸/🇺🇸", "\u{200D}@"),
            ("e\u{0301}vil.example", "%40", "a%40b"),
            ("\u{00E9}vil.example", "%40", "a%40b"),
        ]
        for (index, remote) in remotes.enumerated() {
            let lines = [
                "protocol=https", "host=\(remote.host)", "path=\(remote.path)", "username=\(remote.username)",
                "password=pw-\(index)",
            ]
            let result = try git.helper("store", input: Data((lines.joined(separator: "\n") + "\n").utf8))
            #expect(result.status == 0, "store \(index) failed: \(result.stderr)")
        }
        for (index, remote) in remotes.enumerated() {
            for username in [remote.username, nil] {
                var lines = ["protocol=https", "host=\(remote.host)", "path=\(remote.path)"]
                if let username { lines.append("username=\(username)") }
                let get = try git.helper("get", input: Data((lines.joined(separator: "\n") + "\n").utf8))
                let expected = "username=\(remote.username)\npassword=pw-\(index)\n"
                let own = Array(get.text.utf8) == Array(expected.utf8)
                #expect(own, "remote \(index) (username sent: \(username != nil)) got another record's answer, or none")
            }
        }
    }

    @Test("A record planted with a carriage return in its username is never printed to git; others still answer")
    func plantedCarriageReturn() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        // A key as the helper writes it (the username percent-encoded), set by the tool, which takes it.
        let planted = "https://eve%0Dpassword%3Dforged@example.com"
        let set = try CLI.run(
            ["set", planted, "--service", "git-credential", "--username", "eve\rx", "--url", "https://example.com"],
            stdin: "planted-pw\n", environment: git.environment)
        try #require(set.status == 0, "set failed: \(set.stderr)")
        // And a password with a line that would forge an attribute.
        let forged = try CLI.run(
            [
                "set", "https://mallory@example.com", "--service", "git-credential", "--username", "mallory", "--url",
                "https://example.com",
            ],
            stdin: "planted-pw\nusername=forged\n", environment: git.environment)
        try #require(forged.status == 0, "set failed: \(forged.stderr)")
        var get = try git.helper("get", input: Data("protocol=https\nhost=example.com\n".utf8))
        #expect(get.status == 0 && get.text.isEmpty, "the planted record was printed to git")
        #expect(get.stderr.contains(planted) && get.stderr.contains("username"), "\(get.stderr)")
        #expect(get.stderr.contains("https://mallory@example.com: its password holds a line break"), "\(get.stderr)")
        #expect(!get.stderr.contains("planted-pw"))
        #expect(try GitCredentialHelperTests.fill(git, ["protocol=https", "host=example.com"]) == nil)

        #expect(
            try git.credential("approve", ["protocol=https", "host=example.com", "username=zed", "password=zed-pw"]).status == 0)
        get = try git.helper("get", input: Data("protocol=https\nhost=example.com\n".utf8))
        #expect(get.text == "username=zed\npassword=zed-pw\n", "the next record was not answered after the planted one")
    }

    @Test(
        "Expiry and refresh token survive store → get byte for byte, sealed; an expired credential is not answered, and erase removes it"
    )
    func expiryAndRefreshToken() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        let token = "rt-\u{0D4E}@/%=\u{200D}🇺🇸-\(UUID().uuidString)"
        let store = try git.helper(
            "store",
            input: Data(
                "protocol=https\nhost=example.com\nusername=alice\npassword=pw\npassword_expiry_utc=4102444800\noauth_refresh_token=\(token)\n"
                    .utf8))
        #expect(store.status == 0, "\(store.stderr)")
        let get = try git.helper("get", input: Data("protocol=https\nhost=example.com\n".utf8))
        let expected = "username=alice\npassword=pw\npassword_expiry_utc=4102444800\noauth_refresh_token=\(token)\n"
        let same = Array(get.text.utf8) == Array(expected.utf8)
        #expect(same, "the refresh token or expiry did not come back byte for byte")
        // Sealed with the password: nowhere in the file in the clear, nor in what the tool lists.
        let file = try Data(contentsOf: sandbox.keyringFile)
        #expect(file.range(of: Data(token.utf8)) == nil && file.range(of: Data("rt-".utf8)) == nil)
        let list = try CLI.run(["list", "--service", "git-credential", "--json"], environment: git.environment)
        #expect(list.status == 0 && !list.allOutput.contains("rt-"))

        // Expired (a second after 1970): kept, never answered, erased by git's reject.
        let expired = try git.helper(
            "store",
            input: Data(
                "protocol=https\nhost=old.example.com\nusername=bob\npassword=old-pw\npassword_expiry_utc=1\noauth_refresh_token=old-rt\n"
                    .utf8))
        #expect(expired.status == 0)
        let stale = try git.helper("get", input: Data("protocol=https\nhost=old.example.com\nusername=bob\n".utf8))
        #expect(stale.status == 0 && stale.text.isEmpty, "an expired credential was answered")
        #expect(try GitCredentialHelperTests.fill(git, ["protocol=https", "host=old.example.com"]) == nil)
        let erase = try git.helper(
            "erase", input: Data("protocol=https\nhost=old.example.com\nusername=bob\npassword=old-pw\n".utf8))
        #expect(erase.status == 0)
        let after = try CLI.run(["list", "--service", "git-credential"], environment: git.environment)
        #expect(!after.stdout.contains("old.example.com") && after.stdout.contains("alice@example.com"))
    }
}
