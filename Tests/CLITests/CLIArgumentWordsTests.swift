import Foundation
import KeyringTestSupport
import Testing

/// Words of the command line are taken exactly or refused before any parser reads them:
/// an option written `--name=` with nothing after it (a script's empty variable) must
/// not take the next word as its value, and bytes that are not UTF-8 must not become
/// U+FFFD and meet another key in one record.
@Suite("CLI: command-line words")
struct CLIArgumentWordsTests {
    @Test(
        "--option= with nothing after it is a usage error (64), and nothing is read, written or made",
        arguments: [
            ["get", "--service=", "github"],
            ["set", "--username=", "github", "--url", "https://example.com"],
            ["get", "--file=", "github"],
        ])
    func emptyOptionValue(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        // What a wrong parse would reach: the default record of the service "github".
        let planted = try CLI.run(
            ["set", "--service", "github", "--username", "alice", "--url", "https://example.com"],
            stdin: "default-password", environment: env)
        try #require(planted.status == 0, "set failed: \(planted.stderr)")

        let result = try CLI.run(arguments, stdin: "new-password", environment: env)
        #expect(result.status == 64)
        #expect(result.stderr.contains("has nothing after its '='"))
        #expect(!result.stdout.contains("default-password"))
        // `get --file= github` read as `--file github` makes a keyring file named `github` where the tool runs.
        let stray = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("github")
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        try? FileManager.default.removeItem(at: stray)
        let kept = try CLI.run(["get", "--service", "github", "--json"], environment: env)
        #expect(kept.stdout.contains("\"alice\""), "the default record of service github changed: \(kept.stdout)")
    }

    @Test("A key that is not UTF-8 is a usage error naming the argument, and no record is made")
    func invalidUTF8Argument() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        // Foundation's Process takes only Strings: bash passes the raw byte on.
        let script = #"printf pw | exec "$0" set "$(printf 'k\377')" --username alice --url https://example.com"#
        let result = try ChildProcess.run(["bash", "-c", script, CLI.binary.path], environment: env)
        #expect(result.status == 64)
        #expect(result.standardError.contains("argument 2 is not valid UTF-8"))
        #expect(try CLI.run(["list", "--json"], environment: env).stdout.contains("\"key\"") == false)
    }

    @Test("list escapes bidirectional controls, so a username cannot show its text in another order")
    func bidirectionalControlsEscaped() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let username = "alice\u{202E}gnp.exe\u{2066}"
        let set = try CLI.run(
            ["set", "work", "--username", username, "--url", "https://example.com"], stdin: "pw", environment: env)
        try #require(set.status == 0, "set failed: \(set.stderr)")
        let list = try CLI.run(["list"], environment: env)
        #expect(list.stdout.contains(#"alice\u{202E}gnp.exe\u{2066}"#))
        #expect(
            !list.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        // --json stays exact.
        let json = try CLI.run(["list", "--json"], environment: env)
        #expect(json.stdout.contains("\u{202E}"))
    }
}
