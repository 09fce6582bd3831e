import Foundation
import KeyringTestSupport
import Testing

/// Files someone else put in the tool's way: it refuses them with a status a
/// script can act on, and never waits forever.
@Suite("CLI hostile files")
struct CLIHostileFilesTests {
    /// Where the FIFO goes, and the environment that makes the tool open it.
    enum FIFOPlace: String, CaseIterable, Sendable {
        case keyringFile, passphraseFile, keyFile

        func setUp(_ sandbox: Sandbox) throws -> (path: String, environment: [String: String]) {
            var environment = sandbox.fileEnvironment()
            let path: String
            switch self {
            case .keyringFile:
                try FileManager.default.createDirectory(
                    at: sandbox.keyringFile.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                path = sandbox.keyringFile.path
            case .passphraseFile:
                path = sandbox.folder.appendingPathComponent("passphrase").path
                environment["SWIFT_KEYRING_PASSPHRASE"] = nil
                environment["SWIFT_KEYRING_PASSPHRASE_FILE"] = path
            case .keyFile:
                path = sandbox.folder.appendingPathComponent("keyring.key").path
                environment["SWIFT_KEYRING_PASSPHRASE"] = nil
                environment["SWIFT_KEYRING_KEY_FILE"] = path
            }
            #expect(mkfifo(path, 0o600) == 0)
            return (path, environment)
        }
    }

    @Test("77: a FIFO in place of a file is refused at once, not waited on", arguments: FIFOPlace.allCases)
    func fifo(place: FIFOPlace) throws {
        let sandbox = try Sandbox()
        let (path, environment) = try place.setUp(sandbox)
        // The bound turns a regression into a failure (the run is killed) instead of a hung suite.
        let result = try CLI.run(["get"], environment: environment, timeout: 30)
        #expect(result.status == 77)
        #expect(result.stderr.contains(path) && result.stderr.contains("it is not a regular file"))
    }

    @Test(
        "77: a key or passphrase file its group can write is refused",
        arguments: ["SWIFT_KEYRING_KEY_FILE", "SWIFT_KEYRING_PASSPHRASE_FILE"])
    func groupWritableSecretFile(variable: String) throws {
        let sandbox = try Sandbox()
        let path = sandbox.folder.appendingPathComponent("secret").path
        let content = variable == "SWIFT_KEYRING_KEY_FILE" ? Data(repeating: 7, count: 32) : Data("a passphrase\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: content, attributes: [.posixPermissions: 0o660]))
        #expect(chmod(path, 0o660) == 0)
        var environment = sandbox.fileEnvironment([variable: path])
        environment["SWIFT_KEYRING_PASSPHRASE"] = nil
        let result = try CLI.run(["get"], environment: environment)
        #expect(result.status == 77)
        #expect(result.stderr.contains("lets its group read and write it"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyringFile.path))
    }

    @Test("74: a header asking for more than the Argon2id bounds, refused before any key is derived")
    func ruinousHeader() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        #expect(try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env).status == 0)
        // m = 4194304 KiB overflowed inside libgcrypt 1.10.1 and came out as 69 "Invalid argument".
        let planted = try HeaderPatch.parameters(
            Data(contentsOf: sandbox.keyringFile), iterations: 1, memoryKiB: 4_194_304, parallelism: 1)
        try planted.write(to: sandbox.keyringFile)
        let result = try CLI.run(["get"], environment: env, timeout: 30)
        #expect(result.status == 74)
        #expect(result.stderr.contains("out of range"))
        #expect(try Data(contentsOf: sandbox.keyringFile) == planted)
    }

    @Test("doctor warns about a file whose key derivation is weaker than the default")
    func doctorWeakCost() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        #expect(try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env).status == 0)
        let before = try CLI.run(["doctor"], environment: env)
        #expect(before.stdout.contains("key derivation:   argon2id t=3 m=65536 KiB p=1\n"))

        let weak = try HeaderPatch.parameters(Data(contentsOf: sandbox.keyringFile), iterations: 1, memoryKiB: 8, parallelism: 1)
        try weak.write(to: sandbox.keyringFile)
        let doctor = try CLI.run(["doctor"], environment: env)
        #expect(doctor.status == 0)
        #expect(
            doctor.stdout.contains(
                "key derivation:   argon2id t=1 m=8 KiB p=1 — warning: argon2id t=1 m=8 KiB p=1 is weaker than the default"))
    }
}
