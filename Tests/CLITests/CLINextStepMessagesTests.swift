import Foundation
import KeyringTestSupport
import Testing

/// Each failure's one line says what to do next, in the words of a shell, not of the library.
@Suite("CLI: messages that say what to do next")
struct CLINextStepMessagesTests {
    @Test("77: a wrong passphrase piped to unlock says so, and names no variable that is not set")
    func wrongPipedPassphrase() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw")
        defer { withExtendedLifetime(sandbox) {} }
        let result = try CLI.run(["unlock"], stdin: "not-the-passphrase\n", environment: environment)
        #expect(result.status == 77)
        #expect(result.stderr.contains("The passphrase typed or piped on standard input is not the file's."), "\(result.stderr)")
        #expect(!result.stderr.contains("SWIFT_KEYRING_PASSPHRASE"))
        var set = environment
        set["SWIFT_KEYRING_PASSPHRASE"] = "not-the-passphrase"
        let named = try CLI.run(["get", "gh"], environment: set)
        #expect(named.status == 77)
        #expect(named.stderr.contains("Check SWIFT_KEYRING_PASSPHRASE: it is set"), "\(named.stderr)")
    }

    @Test("77: no passphrase anywhere names the variables and unlock, not the library's \"explicit passphrase or key\"")
    func noPassphrase() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw")
        defer { withExtendedLifetime(sandbox) {} }
        let result = try CLI.run(["get", "gh"], environment: environment)
        #expect(result.status == 77)
        #expect(!result.stderr.contains("explicit"), "\(result.stderr)")
        #expect(result.stderr.contains("SWIFT_KEYRING_PASSPHRASE_FILE") && result.stderr.contains("swift-keyring unlock"))
    }

    @Test("74: a damaged file says to put back a backup or move the file aside, and what is lost")
    func damagedFile() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["set", "ci", "--username", "bot", "--url", "https://git.example"], stdin: "pw", environment: environment)
        #expect(set.status == 0)
        var bytes = try Data(contentsOf: sandbox.keyringFile)
        bytes[bytes.count - 5] ^= 0xFF
        try bytes.write(to: sandbox.keyringFile)
        let result = try CLI.run(["get", "ci"], environment: environment)
        #expect(result.status == 74)
        #expect(result.stderr.contains("Put back a backup of the file, or move the file aside"), "\(result.stderr)")
        #expect(result.stderr.contains("its records are then lost"))
    }

    @Test("64: an unknown SWIFT_KEYRING_BACKEND lists every backend the tool takes, etcd included")
    func unknownBackend() throws {
        let sandbox = try Sandbox()
        let result = try CLI.run(["list"], environment: sandbox.fileEnvironment(["SWIFT_KEYRING_BACKEND": "vault"]))
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("kernel, etcd, not \"vault\"") || result.stderr.contains(", etcd, not \"vault\""),
            "\(result.stderr)")
    }

    @Test("Store options before the subcommand are taken as after it, as the git helper takes them")
    func leadingOptions() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.fileEnvironment()
        let set = try CLI.run(
            ["--service", "other", "set", "ci", "--username", "bot", "--url", "https://git.example"], stdin: "pw",
            environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        let list = try CLI.run(["--service", "other", "list"], environment: environment)
        #expect(list.status == 0 && list.stdout.contains("ci"), "\(list.stderr)")
        let equals = try CLI.run(["--service=other", "--backend", "file", "get", "ci"], environment: environment)
        #expect(equals.status == 0 && equals.stdout == "pw\n", "\(equals.stderr)")
        // The default service holds nothing: the option did reach the command.
        #expect(try CLI.run(["get", "ci"], environment: environment).status == 1)
    }

    @Test("69: import git-libsecret with no Secret Service says where to run it, not --backend file")
    func importWithoutSecretService() throws {
        let sandbox = try Sandbox()
        let result = try CLI.run(["import", "git-libsecret"], environment: sandbox.baseEnvironment())
        #expect(result.status == 69)
        #expect(
            result.stderr.contains("git-credential-libsecret keeps its credentials in the Secret Service"), "\(result.stderr)")
        #expect(!result.stderr.contains("--backend file"))
    }
}
