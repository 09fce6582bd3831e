import Foundation
import Testing

/// Every exit status of the tool, each with a one-line message and no secret in it.
@Suite("CLI exit statuses")
struct CLIExitStatusTests {
    @Test("1: no such record, for get and remove")
    func notFound() throws {
        let sandbox = try Sandbox()
        let get = try CLI.run(["get", "missing"], environment: sandbox.fileEnvironment())
        #expect(get.status == 1)
        #expect(get.stderr == "swift-keyring: No record is stored under the key \"missing\".\n")
        #expect(try CLI.run(["remove", "missing"], environment: sandbox.fileEnvironment()).status == 1)
    }

    @Test(
        "64: usage errors",
        arguments: [
            ["get", "--no-such-option"],
            ["set", "--username", "alice"],
            ["frobnicate"],
            ["remove-all"],
            ["list", "--backend", "carrier-pigeon"],
        ])
    func usage(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = try CLI.run(arguments, stdin: "pw", environment: sandbox.fileEnvironment())
        #expect(result.status == 64)
        #expect(!result.stderr.isEmpty)
    }

    @Test(
        "65: invalid input names the field and stores nothing",
        arguments: [
            (["--username", "alice", "--url", "ftp://files.example.com"], "Invalid url: must use http or https, not ftp."),
            (["--username", "alice", "--url", "example.com"], "Invalid url: must be absolute, with an http or https scheme."),
            (["--username", "", "--url", "https://example.com"], "Invalid username: must not be empty."),
        ])
    func invalidInput(options: [String], message: String) throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let result = try CLI.run(["set", "k"] + options, stdin: "the-password", environment: env)
        #expect(result.status == 65)
        #expect(result.stderr == "swift-keyring: \(message)\n")
        #expect(!result.allOutput.contains("the-password"))
        #expect(try CLI.run(["list"], environment: env).stdout.isEmpty)
    }

    @Test("65: a piped password that is not UTF-8 is refused, not mangled")
    func binaryPassword() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        let result = try CLI.run(
            ["set", "--username", "a", "--url", "https://x.example"],
            stdinBytes: Data([0x70, 0xFF, 0xFE, 0x0A]), environment: env)
        #expect(result.status == 65)
        #expect(result.stderr == "swift-keyring: The password is not UTF-8 text; nothing was changed.\n")
        #expect(try CLI.run(["get"], environment: env).status == 1)
    }

    @Test("69: the Secret Service forced where no bus answers")
    func unavailable() throws {
        let sandbox = try Sandbox()
        let env = sandbox.secretServiceEnvironment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.folder.path)/no-bus"])
        let result = try CLI.run(["get"], environment: env)
        #expect(result.status == 69)
        #expect(result.stderr.contains("doctor"))
    }

    @Test("74: a damaged keyring file, left as it was")
    func damaged() throws {
        let sandbox = try Sandbox()
        let env = sandbox.fileEnvironment()
        _ = try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env)
        var bytes = try Data(contentsOf: sandbox.keyringFile)
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: sandbox.keyringFile)
        let result = try CLI.run(["get"], environment: env)
        #expect(result.status == 74)
        // The message names the store that is damaged (etcd and the session state file say theirs).
        #expect(result.stderr.hasPrefix("swift-keyring: The keyring file is damaged: "), "\(result.stderr)")
        #expect(try Data(contentsOf: sandbox.keyringFile) == bytes)
        let set = try CLI.run(["set", "--username", "b", "--url", "https://x.example"], stdin: "pw2", environment: env)
        #expect(set.status == 74)
        #expect(try Data(contentsOf: sandbox.keyringFile) == bytes)
    }

    @Test("77: a wrong passphrase, a missing one, and a file others can read")
    func permission() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        _ = try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env)

        let wrong = try CLI.run(["get"], environment: sandbox.passphraseEnvironment(["SWIFT_KEYRING_PASSPHRASE": "not-it"]))
        #expect(wrong.status == 77)
        #expect(wrong.stderr.hasPrefix("swift-keyring: The passphrase or key does not open the keyring file."))
        #expect(!wrong.allOutput.contains("not-it") && !wrong.allOutput.contains(sandbox.passphrase))

        var none = env
        none.removeValue(forKey: "SWIFT_KEYRING_PASSPHRASE")
        let missing = try CLI.run(["get"], environment: none)
        #expect(missing.status == 77)
        for source in [
            "SWIFT_KEYRING_PASSPHRASE", "SWIFT_KEYRING_PASSPHRASE_FILE", "CREDENTIALS_DIRECTORY", "SWIFT_KEYRING_KEY_FILE",
        ] {
            #expect(missing.stderr.contains(source))
        }

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.keyringFile.path)
        let exposed = try CLI.run(["get"], environment: env)
        #expect(exposed.status == 77)
        #expect(exposed.stderr.contains(sandbox.keyringFile.path))
    }
}
