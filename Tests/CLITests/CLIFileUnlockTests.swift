import Foundation
import KeyringCrypto
import KeyringTestSupport
import Testing

/// `swift-keyring unlock` and `lock` on the encrypted file: one passphrase per login session.
@Suite("CLI unlock of the encrypted file")
struct CLIFileUnlockTests {
    /// The helper that looks into the session keyring as another process would (Tests/KeyringTestWorker).
    private static let worker = URL(fileURLWithPath: CLI.binary.path).deletingLastPathComponent()
        .appendingPathComponent("KeyringTestWorker").path

    /// The name the file's key is kept under: it follows from the header, not the path.
    private func keyName(_ sandbox: Sandbox) throws -> String {
        "swift-keyring:file:" + (try KeyedHeader.decode(Array(try Data(contentsOf: sandbox.keyringFile))).identity)
    }

    /// What the worker finds of the key `name`, run directly or under `prefix` (another session, another user).
    private func probe(_ name: String, under prefix: [String] = []) throws -> String {
        let arguments = prefix + [Self.worker, "session-keyring", "read", name]
        let result = try Command.run(arguments[0], Array(arguments.dropFirst()), environment: [:])
        return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("unlock once: fresh processes of the session read without the passphrase; others cannot; lock forgets the key")
    func unlockOnce() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, environment) = try Sandbox.fileWithRecord(password)
        #expect(try CLI.run(["get", "gh"], environment: environment).status == 77)

        let unlock = try CLI.run(["unlock", "--for", "10m"], stdin: sandbox.passphrase + "\n", environment: environment)
        let name = try keyName(sandbox)
        defer { _ = try? CLI.run(["lock"], environment: environment) }
        #expect(unlock.status == 0, "unlock failed: \(unlock.stderr)")
        #expect(unlock.stdout.hasPrefix("Unlocked \(sandbox.keyringFile.path) for this login session until "))

        let get = try CLI.run(["get", "gh"], environment: environment)
        #expect(get.status == 0, "get after unlock failed: \(get.stderr)")
        #expect(get.stdout == password + "\n", "the record gh read after unlock differs")
        let doctor = try CLI.run(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("unlocked key:     in use, kept in the session keyring until "))

        // Possessor-only (no rights for the user, group or others), and 40 bytes: the 32-byte key and its expiry.
        let line = try #require(try SessionKeys.procLine(name), "the key is not in the session keyring")
        #expect(line.contains(" 3f000000 ") && line.hasSuffix(": 40"), "unexpected key: \(line)")
        #expect(try probe(name) == "readable")
        #expect(try probe(name, under: [Self.worker, "session-keyring", "new-session"]) == "absent")
        let otherSession = try Command.run(
            Self.worker, ["session-keyring", "new-session", CLI.binary.path, "get", "gh"], environment: environment)
        #expect(otherSession.status == 77, "a process of another session read the file: \(otherSession.stderr)")
        if MachineNeed.rootWithSetpriv.applies {
            try MachineNeed.rootWithSetpriv.require()
            // Another user's process, in a session of its own, reads the key by its id: refused. (Not in
            // this process's session: a thread of it that looked up `@s` has the user's session keyring
            // in its credentials, a process it starts inherits it through setpriv, and possesses the key.)
            // It runs a copy of the worker: the build folder may be closed to other users (a 0700 checkout).
            let id = try #require(line.split(separator: " ").first.map(String.init).flatMap { Int32($0, radix: 16) })
            let worker = try CopyForOtherUsers.executable(Self.worker)
            let other = try Command.run(
                "setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", worker, "session-keyring", "new-session", worker,
                    "kernel-store", "read-key", "\(id)",
                ], environment: [:])
            #expect(
                other.text == "denied Permission denied\n", "uid 65534 reading the key by its id: \(other.text) \(other.stderr)")
        }

        let lock = try CLI.run(["lock"], environment: environment)
        #expect(lock.status == 0 && lock.stdout.hasPrefix("Locked "), "lock failed: \(lock.stderr)")
        // No search finds it, no read reads it; /proc/keys may list it until the kernel's collector runs.
        #expect(try probe(name) == "absent")
        #expect(try CLI.run(["get", "gh"], environment: environment).status == 77)
        let again = try CLI.run(["lock"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("was not unlocked"))
        for output in [unlock, get, doctor, lock].map(\.allOutput) + [otherSession.text + otherSession.stderr] {
            #expect(!output.contains(sandbox.passphrase), "the passphrase was printed")
        }
    }

    @Test("The git helper finds the unlocked key too")
    func gitHelper() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw-\(UUID().uuidString)")
        let unlock = try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment)
        defer { _ = try? CLI.run(["lock"], environment: environment) }
        #expect(unlock.status == 0, "unlock failed: \(unlock.stderr)")
        try GitHelperRoundTrip.expectStoresAndFills(environment, when: "after unlock")
    }

    @Test("passwd asks the current passphrase though the file is unlocked, then forgets the key; the new one opens every record")
    func passwdForgets() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, environment) = try Sandbox.fileWithRecord(password)
        #expect(try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment).status == 0)
        let name = try keyName(sandbox)
        let newPassphrase = "new-\(UUID().uuidString)"
        let changing = environment.merging(["SWIFT_KEYRING_NEW_PASSPHRASE": newPassphrase]) { $1 }
        // The kept key reads records, but changing the passphrase takes knowing it.
        let before = try Data(contentsOf: sandbox.keyringFile)
        for stdin in ["", "not-the-passphrase"] {
            let refused = try CLI.run(["passwd"], stdin: stdin, environment: changing)
            #expect(refused.status == (stdin.isEmpty ? 65 : 77), "passwd with only the kept key: \(refused.stderr)")
            #expect(!refused.allOutput.contains(newPassphrase), "the new passphrase was printed")
        }
        #expect(try Data(contentsOf: sandbox.keyringFile) == before, "a refused passwd changed the file")
        #expect(try probe(name) == "readable", "a refused passwd dropped the kept key")
        let passwd = try CLI.run(["passwd"], stdin: sandbox.passphrase, environment: changing)
        #expect(passwd.status == 0, "passwd failed: \(passwd.stderr)")
        #expect(try probe(name) == "absent")
        #expect(try CLI.run(["get", "gh"], environment: environment).status == 77)
        let get = try CLI.run(
            ["get", "gh"], environment: environment.merging(["SWIFT_KEYRING_PASSPHRASE": newPassphrase]) { $1 })
        #expect(get.stdout == password + "\n", "the record gh differs after passwd")
    }

    @Test("The key is gone at its timeout")
    func expires() throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw-\(UUID().uuidString)")
        #expect(try CLI.run(["unlock", "--for", "2s"], stdin: sandbox.passphrase, environment: environment).status == 0)
        let name = try keyName(sandbox)
        #expect(try probe(name) == "readable")
        Thread.sleep(forTimeInterval: 4)
        #expect(try probe(name) == "absent")
        #expect(try CLI.run(["get", "gh"], environment: environment).status == 77)
        #expect(try CLI.run(["doctor"], environment: environment).stdout.contains("unlocked key:     none"))
    }

    @Test(
        "A wrong passphrase keeps nothing; a bad --for is a usage error",
        arguments: [["--for", "0"], ["--for", "31d"], ["--for", "1x"]])
    func refusals(_ options: [String]) throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw-\(UUID().uuidString)")
        let wrong = try CLI.run(["unlock"], stdin: "not-the-passphrase", environment: environment)
        #expect(wrong.status == 77)
        let name = try keyName(sandbox)
        #expect(try probe(name) == "absent")
        let bad = try CLI.run(["unlock"] + options, stdin: sandbox.passphrase, environment: environment)
        #expect(bad.status == 64, "--for \(options[1]): \(bad.allOutput)")
        #expect(bad.stderr.contains("for") || bad.stderr.contains("duration"), "no word of the option: \(bad.stderr)")
        #expect(try probe(name) == "absent")
    }

    @Test(
        "A signal at a passphrase prompt leaves the terminal echoing",
        arguments: [(["unlock"], SIGINT), (["get", "gh"], SIGINT), (["unlock"], SIGTERM), (["get", "gh"], SIGHUP)])
    func signalRestoresEcho(_ arguments: [String], _ signal: Int32) throws {
        let (sandbox, environment) = try Sandbox.fileWithRecord("pw-\(UUID().uuidString)")
        defer { withExtendedLifetime(sandbox) {} }
        let session = try TerminalSession(arguments, environment: environment)
        #expect(session.waitFor("Passphrase for "), "no prompt: \(String(decoding: session.output, as: UTF8.self))")
        #expect(session.waitForEchoOff(), "the tool never turned echo off")
        session.send(signal)
        _ = session.exitStatus()
        #expect(session.echoIsOn(), "echo is still off after signal \(signal) during \(arguments[0])")
    }
}
