import ArgumentParser
import Testing

@testable import swift_keyring

/// The tool reads well-formed command lines itself (`CommandLineShortcut`) and leaves the
/// rest to ArgumentParser. Both must make the same command of every line the shortcut reads,
/// or a script would get a different record, store or flag depending on which parser ran.
@Suite("CLI: command lines read without ArgumentParser")
struct CLICommandLineShortcutTests {
    /// Lines the shortcut reads: every subcommand, every option and flag, both `--name value`
    /// and `--name=value`, options before and after the key, and keys ArgumentParser might
    /// mistake for something else.
    static let readByShortcut: [[String]] = [
        ["get"],
        ["get", "github"],
        ["get", "github", "--json"],
        ["get", "--json", "github"],
        ["get", "github", "--service", "com.example.mail", "--backend", "file", "--file", "/tmp/keyring.swkr"],
        ["get", "--service=com.example.mail", "github"],
        ["get", "k", "--prompt-timeout", "30"],
        ["get", "k", "--collection", "login", "--session-fallback"],
        ["set", "k", "--username", "alice", "--url", "https://example.com", "--collection=Work keys"],
        ["get", "k", "--backend", "etcd", "--etcd-endpoints", "http://127.0.0.1:2379,http://127.0.0.1:22379"],
        ["get", "ключ", "--service", "сервис"],
        ["get", "help"],
        ["get", "set"],
        ["set", "k", "--username", "alice", "--url", "https://example.com"],
        ["set", "--url=https://example.com/?a=b&c=d", "--username", "alice", "--sync", "--background-access"],
        ["set", "--username", "alice", "k", "--url", "https://example.com", "--backend", "memory"],
        ["remove"],
        ["remove", "k", "--backend", "memory"],
        ["list"],
        ["list", "--json", "--sync-only", "--background-access-only"],
        ["list", "--background-access-only", "--service", "s"],
        ["list", "--show-place", "--place", "shared", "--sync-store", "etcd"],
        ["list", "--place=local"],
        ["remove-all"],
        ["remove-all", "--yes", "--service", "com.example.mail"],
        ["remove-all", "--this-machine", "--yes", "--sync-store=etcd"],
        ["sync", "push"],
        ["sync", "push", "--sync-store", "etcd", "--service", "s"],
        ["doctor"],
        ["doctor", "--json", "--backend", "secret-service"],
        ["passwd", "--backend", "file", "--file", "/tmp/keyring.swkr"],
        ["migrate", "--from", "file", "--to", "etcd", "--remove-source"],
        ["migrate", "--to=memory", "--from=file"],
    ]

    /// Lines left to ArgumentParser: help, completions, errors, and forms the shortcut does not read.
    static let leftToArgumentParser: [[String]] = [
        [],
        ["--help"],
        ["-h"],
        ["help"],
        ["help", "get"],
        ["get", "--help"],
        ["get", "-h"],
        ["--generate-completion-script", "bash"],
        ["--version", "get"],
        ["get", "--version"],
        ["frobnicate"],
        ["get", "a", "b"],
        ["get", "--json", "--json"],
        ["get", "--json=true"],
        ["get", "--service"],
        ["get", "--service", "--json"],
        ["get", "--service", "a", "--service", "b"],
        ["get", "--", "-k"],
        ["get", "-k"],
        ["get", ""],
        ["get", "--service", ""],
        ["get", "--service="],
        ["get", "--service", "-s"],
        ["get", "--unknown"],
        ["get", "--url", "https://example.com"],
        ["set", "k", "--username", "alice"],
        ["list", "k"],
        ["list", "--place", "elsewhere"],
        ["sync"],
        ["sync", "pull"],
        ["remove-all", "k"],
        ["passwd", "--json"],
        ["migrate", "--from", "file", "--to", "file"],
        ["migrate", "--from", "auto", "--to", "file"],
    ]

    @Test("The shortcut makes the same command as ArgumentParser", arguments: readByShortcut)
    func sameCommand(line: [String]) throws {
        if case .get(let request) = CommandLineShortcut.parse(line) {
            // `get` is read into plain values, which must equal what ArgumentParser's `GetCommand` holds.
            let parsed = try #require(try SwiftKeyring.parseAsRoot(line) as? GetCommand, "\(line) is no get command")
            #expect(request == parsed.request)
            return
        }
        guard case .command(let shortcut) = CommandLineShortcut.parse(line) else {
            Issue.record("the shortcut left \(line) to ArgumentParser")
            return
        }
        let parsed = try SwiftKeyring.parseAsRoot(line)
        // A command's description names its type and every property ArgumentParser knows
        // of, with its value, or `*definition*` for one nobody set: a property added to a
        // subcommand but not to the shortcut fails here, and would crash the tool when read.
        let made = String(describing: shortcut)
        #expect(made == String(describing: parsed))
        #expect(!made.contains("*definition*"), "the shortcut left a property unset: \(made)")
    }

    @Test("--version alone prints what ArgumentParser prints")
    func version() throws {
        guard case .version = CommandLineShortcut.parse(["--version"]) else {
            Issue.record("the shortcut left --version to ArgumentParser")
            return
        }
        let request = #expect(throws: (any Error).self) { try SwiftKeyring.parseAsRoot(["--version"]) }
        #expect(request.map(SwiftKeyring.message(for:)) == SwiftKeyring.configuration.version)
    }

    @Test("Help, completions, errors and unusual forms are left to ArgumentParser", arguments: leftToArgumentParser)
    func leftAlone(line: [String]) {
        #expect(CommandLineShortcut.parse(line) == nil, "the shortcut read \(line)")
    }
}
