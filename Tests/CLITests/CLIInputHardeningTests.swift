import Foundation
import Testing

/// What reaches the tool from a pipe, a terminal or the command line arrives exactly or is
/// refused, and what it prints cannot forge a line or drive the terminal.
@Suite("CLI input and output hardening")
struct CLIInputHardeningTests {
    static let bomPassword: [UInt8] = Array("\u{FEFF}pw with a BOM".utf8)
    static let invalidUTF8: [UInt8] = [0xFF, 0xFE] + Array(" not text".utf8)

    @Test("A piped password that starts with U+FEFF reads back byte for byte")
    func pipedBOM() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["set", "--username", "alice", "--url", "https://example.com"],
            stdinBytes: Data(Self.bomPassword + [0x0A]), environment: env)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        let get = try CLI.run(["get"], environment: env)
        #expect(Array(get.stdout.utf8) == Self.bomPassword + [0x0A])
        // The raw bytes: JSONSerialization itself drops a leading U+FEFF from a string value.
        let json = try CLI.run(["get", "--json"], environment: env)
        #expect(Data(json.stdout.utf8).range(of: Data(#""password":""#.utf8 + Self.bomPassword + [0x22])) != nil)
    }

    @Test("A piped password that is not UTF-8 is refused with 65, and nothing is stored")
    func pipedInvalidUTF8() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["set", "--username", "alice", "--url", "https://example.com"],
            stdinBytes: Data(Self.invalidUTF8), environment: env)
        #expect(set.status == 65)
        #expect(set.stderr.contains("password is not UTF-8"))
        #expect(try CLI.run(["get"], environment: env).status == 1)
    }

    /// Runs `set` on a terminal and types `line` at both password prompts (when the second comes).
    private func setOnTerminal(typing line: [UInt8], environment: [String: String]) throws -> (status: Int32, output: String) {
        let terminal = try TerminalSession(
            ["set", "--username", "alice", "--url", "https://example.com"], environment: environment)
        try #require(terminal.waitFor("Password: ") && terminal.waitForEchoOff(), "no password prompt")
        terminal.type(line + [0x0A])
        if terminal.waitFor("Repeat password: ") {
            try #require(terminal.waitForEchoOff())
            terminal.type(line + [0x0A])
        }
        let status = terminal.exitStatus()
        return (status, String(decoding: terminal.output, as: UTF8.self))
    }

    @Test("On a terminal, a password that is not UTF-8 is refused with 65 as on a pipe, and nothing is stored")
    func terminalInvalidUTF8() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let (status, output) = try setOnTerminal(typing: Self.invalidUTF8, environment: env)
        #expect(status == 65)
        #expect(output.contains("password is not UTF-8"))
        #expect(try CLI.run(["get"], environment: env).status == 1)
    }

    @Test("On a terminal, a password that starts with U+FEFF reads back byte for byte")
    func terminalBOM() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let (status, output) = try setOnTerminal(typing: Self.bomPassword, environment: env)
        #expect(status == 0, "set failed: \(output)")
        #expect(Array(try CLI.run(["get"], environment: env).stdout.utf8) == Self.bomPassword + [0x0A])
    }

    @Test("A URL that does not parse is refused without echoing it, so its password never shows")
    func unparsableURL() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        for url in ["http://alice:pw-in-url-SECRET@[::1", "https://alice:pw-in-url-SECRET@exa mple.com/"] {
            let set = try CLI.run(["set", "--username", "alice", "--url", url], stdin: "pw", environment: env)
            #expect(set.status == 65)
            #expect(set.stderr.contains("Invalid url"))
            #expect(!set.allOutput.contains("pw-in-url-SECRET"), "the URL's password was printed")
            #expect(!set.allOutput.contains("alice:"))
        }
        let parsed = try CLI.run(
            ["set", "--username", "alice", "--url", "https://alice:pw-in-url-SECRET@example.com/"], stdin: "pw", environment: env)
        #expect(parsed.status == 65)
        #expect(!parsed.allOutput.contains("pw-in-url-SECRET"))
    }

    @Test("A URL with a fragment is refused with 65")
    func fragment() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["set", "--username", "alice", "--url", "https://example.com/#access_token=abc"], stdin: "pw", environment: env)
        #expect(set.status == 65)
        #expect(set.stderr.contains("URL must not contain a fragment") || set.stderr.contains("url: must not contain a fragment"))
        #expect(try CLI.run(["list"], environment: env).stdout.isEmpty)
    }
}
