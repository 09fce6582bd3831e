import Foundation
import Testing

/// Keys and usernames of any text go in through argv and come back exactly from `get --json`
/// and `list --json`; the tab-separated `list` escapes them as docs/CLI.md says.
enum ExactNames {
    static let key = "tab\there\nnew line\r\u{0B}\u{0C} ключ"
    static let username = "alice \\ \u{1B}[2J Ελένη\t中文"
    /// `list`'s line for the record: `\t \n \r \e`, `\xHH` for the other C0 controls and DEL, `\\` for a backslash.
    static let listed = "tab\\there\\nnew line\\r\\x0B\\x0C ключ\talice \\\\ \\e[2J Ελένη\\t中文\thttps://example.com\t-\n"

    static func roundTrip(_ environment: [String: String]) throws {
        let set = try CLI.run(
            ["set", key, "--username", username, "--url", "https://example.com"], stdin: "pw", environment: environment)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        #expect(try CLI.run(["get", key], environment: environment).stdout == "pw\n")

        let json = try CLI.run(["get", key, "--json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["key"] as? String).map { Array($0.utf8) } == Array(key.utf8))
        #expect((object["username"] as? String).map { Array($0.utf8) } == Array(username.utf8))

        let list = try CLI.run(["list"], environment: environment)
        #expect(list.stdout == listed)
        let listJSON = try CLI.run(["list", "--json"], environment: environment)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(listJSON.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect((objects.first?["key"] as? String).map { Array($0.utf8) } == Array(key.utf8))
        #expect((objects.first?["username"] as? String).map { Array($0.utf8) } == Array(username.utf8))

        #expect(try CLI.run(["remove", key], environment: environment).status == 0)
        #expect(try CLI.run(["list"], environment: environment).stdout.isEmpty)
    }
}

@Suite("CLI: names stored exactly")
struct CLIExactNamesTests {
    @Test("A key and username with whitespace, escapes and other scripts round-trip on the encrypted file")
    func file() throws {
        let sandbox = try Sandbox()
        try ExactNames.roundTrip(sandbox.fileEnvironment())
    }
}

extension CLISecretServiceTests {
    @Test("A key and username with whitespace, escapes and other scripts round-trip on the daemon")
    func exactNames() throws {
        let sandbox = try Sandbox()
        let env = try environment(sandbox, service: "cli.\(UUID().uuidString.lowercased())")
        defer { _ = try? CLI.run(["remove-all", "--yes"], environment: env) }
        try ExactNames.roundTrip(env)
    }
}
