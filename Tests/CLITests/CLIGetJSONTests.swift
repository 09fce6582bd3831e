import Foundation
import SwiftKeyring
import Testing

@testable import swift_keyring

/// `get --json` prints, byte for byte, what `JSONEncoder` made of the record before the line
/// was written from the password's bytes: escapes, key order and all, for passwords, keys and
/// usernames holding what JSON escapes and what it passes through.
@Suite("CLI get --json, byte for byte")
struct CLIGetJSONTests {
    /// Every C0 control but NUL (which a key cannot hold), one string.
    static let controls = String(String.UnicodeScalarView((1..<0x20).compactMap(Unicode.Scalar.init)))

    /// Records as (key, username, password, URL, sync, background access). The URLs are ASCII:
    /// Foundation in this test and FoundationEssentials in the tool parse an IDN host differently
    /// (punycode against percent escapes), which is not what this test is about.
    static let records: [(key: String, username: String, password: String, url: String, sync: Bool, background: Bool)] = [
        ("plain", "alice", "hunter2", "https://example.com", false, false),
        ("quotes \"q\" and \\", "bob \"the\" \\ builder", "pa\"ss\\word/with/slashes", "https://example.com/a/b", true, false),
        ("controls", "tab\there", controls + "\u{7F}", "http://example.com:8080/p%20q?r=s", false, true),
        (
            "ключ ü é 🔑", "zoë e\u{301} 名前", "é\u{301} 😀 \u{2028}\u{2029}\u{FEFF} \u{85}\u{9F} 名前",
            "https://example.com/%E3%83%91%E3%82%B9?q=%22x%22", true, true
        ),
        ("line breaks", "line\nbreak", "\r\nlast\n", "https://example.com", false, false),
    ]

    @Test("get --json prints what JSONEncoder makes of each record")
    func byteForByte() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.fileEnvironment()
        for record in Self.records {
            var arguments = ["set", record.key, "--username", record.username, "--url", record.url]
            if record.sync { arguments.append("--sync") }
            if record.background { arguments.append("--background-access") }
            // The pipe's one final newline is taken off: one more keeps a password's own.
            let set = try CLI.run(arguments, stdin: record.password + "\n", environment: environment)
            try #require(set.status == 0, "set \(record.key) failed: \(set.stderr)")
            let credentials = try Credentials(
                username: record.username, password: record.password, url: try #require(URL(string: record.url)),
                syncEnabled: record.sync, backgroundAccess: record.background)
            let expected = try JSONOutput.encode(RecordJSON(key: record.key, credentials: credentials)) + "\n"
            let printed = try CLI.run(["get", record.key, "--json"], environment: environment)
            #expect(printed.status == 0, "get --json \(record.key) failed: \(printed.stderr)")
            // Compared as bytes: `String`'s == would take é and e + U+0301 for the same.
            let same = Array(printed.stdout.utf8) == Array(expected.utf8)
            #expect(same, "get --json \(record.key) does not print what JSONEncoder makes of the record")
        }
    }

    /// One JSON string field, as `JSONOutput` encodes values.
    private struct Field: Encodable {
        var value: String
    }

    @Test("Every scalar up to U+00FF, and others beyond, is escaped as JSONEncoder escapes it")
    func escapingMatchesJSONEncoder() throws {
        let others: [Unicode.Scalar] = ["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "\u{1F511}", "\u{0301}"]
        for scalar in (0...0xFF).compactMap(Unicode.Scalar.init) + others {
            let text = "a" + String(scalar) + "b"
            // JSONEncoder's whole object is {"value":"…"}: the escaped text is what lies between its quotes.
            let encoded = Array(try JSONOutput.encode(Field(value: text)).utf8)
            let expected = Array(encoded.dropFirst(#"{"value":""#.utf8.count).dropLast(#""}"#.utf8.count))
            var escaped: [UInt8] = []
            JSONStringEscaping.append(text.utf8, to: &escaped)
            let name = "U+" + String(scalar.value, radix: 16)
            #expect(escaped == expected, "\(name) is escaped otherwise than JSONEncoder escapes it")
            #expect(JSONStringEscaping.escapedCount(text.utf8) == escaped.count, "the count of \(name) is not its length")
        }
    }
}
