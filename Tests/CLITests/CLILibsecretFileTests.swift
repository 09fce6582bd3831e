import Foundation
import KeyringTestSupport
import Testing

/// The tool on libsecret's keyring file (`--backend libsecret-file`), with secret-tool's file backend on the same file.
@Suite("CLI on libsecret's keyring file")
struct CLILibsecretFileTests {
    private func secretTool(_ arguments: [String], _ sandbox: Sandbox, _ url: URL, stdin: String? = nil) throws -> CommandResult {
        let result = try LibsecretFileFixture.secretTool(arguments, url: url, password: sandbox.passphrase, stdin: stdin)
        #expect(result.status == 0, "secret-tool \(arguments.first ?? "") failed: \(result.stderr)")
        return result
    }

    @Test("set with --backend libsecret-file --file writes what secret-tool reads, and list shows what secret-tool wrote")
    func setAndList() throws {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        let env = sandbox.passphraseEnvironment()
        let options = ["--backend", "libsecret-file", "--file", url.path, "--service", "com.example.cli"]
        let set = try CLI.run(
            ["set", "github", "--username", "alice", "--url", "https://github.com"] + options, stdin: "pw from the tool\n",
            environment: env)
        #expect(set.status == 0, "set failed: \(set.stderr)")
        #expect(
            try secretTool(["lookup", "service", "com.example.cli", "key", "github"], sandbox, url).text == "pw from the tool")
        _ = try secretTool(
            [
                "store", "--label=from secret-tool", "tag", "swift-keyring", "service", "com.example.cli", "key", "gitlab",
                "kind", "credentials", "username", "bob", "url", "https://gitlab.com", "sync", "false",
                "background-access", "false",
            ], sandbox, url, stdin: "pw from secret-tool")
        let list = try CLI.run(["list"] + options, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("github") && list.stdout.contains("gitlab") && list.stdout.contains("bob"), "\(list.stdout)")
        let get = try CLI.run(["get", "gitlab"] + options, environment: env)
        #expect(get.stdout == "pw from secret-tool\n")
        let doctor = try CLI.run(["doctor"] + options, environment: env)
        #expect(doctor.allOutput.contains("libsecret file:   \(url.path)"), "\(doctor.allOutput)")
        #expect(doctor.allOutput.contains("its permissions:  0600 in a 0700 folder"), "\(doctor.allOutput)")
    }

    @Test("migrate moves the file store's records into libsecret's file and back, and secret-tool reads them there")
    func migrate() throws {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        let env = sandbox.passphraseEnvironment([
            "SWIFT_KEYRING_LIBSECRET_FILE": url.path, "SWIFT_KEYRING_SERVICE": "com.example.move",
        ])
        #expect(
            try CLI.run(["set", "--username", "main", "--url", "https://a.example"], stdin: "first", environment: env).status == 0
        )
        #expect(
            try CLI.run(["set", "w", "--username", "work", "--url", "https://b.example"], stdin: "second", environment: env)
                .status
                == 0)
        let moved = try CLI.run(["migrate", "--from", "file", "--to", "libsecret-file", "--remove-source"], environment: env)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("Copied 2 records"), "\(moved.stdout)")
        #expect(try CLI.run(["list"], environment: env).stdout.contains("main") == false)
        #expect(try secretTool(["lookup", "service", "com.example.move", "key", "w"], sandbox, url).text == "second")
        let back = try CLI.run(["migrate", "--from", "libsecret-file", "--to", "file"], environment: env)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try CLI.run(["get", "w"], environment: env).stdout == "second\n")
    }

    @Test("With no password source, the tool asks on a terminal for the password of libsecret's file, naming it")
    func asksOnTerminal() throws {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try secretTool(
            [
                "store", "--label=x", "tag", "swift-keyring", "service", "default", "key", "typed", "kind", "credentials",
                "username", "u", "url", "https://example.com",
            ], sandbox, url, stdin: "value from secret-tool")
        var env = sandbox.fileEnvironment(["SWIFT_KEYRING_BACKEND": "libsecret-file", "SWIFT_KEYRING_LIBSECRET_FILE": url.path])
        env["SWIFT_KEYRING_KEY_FILE"] = nil
        let terminal = try TerminalSession(["get", "typed"], environment: env)
        try #require(terminal.waitFor("Passphrase for \(url.path): ") && terminal.waitForEchoOff(), "no passphrase prompt")
        terminal.type(Array(sandbox.passphrase.utf8) + [0x0A])
        #expect(terminal.exitStatus() == 0)
        #expect(String(decoding: terminal.output, as: UTF8.self).contains("value from secret-tool"))
    }
}
