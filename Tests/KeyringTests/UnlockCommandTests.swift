import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// `swift-keyring unlock` at a locked gnome-keyring with no prompt anyone can see
/// (SSH): the password on standard input unlocks it, a wrong one leaves it locked,
/// and the password shows up in no output. Each test has its own bus and daemon.
@Suite("swift-keyring unlock")
struct UnlockCommandTests {
    /// A sandbox whose `test.unlock/work` record is stored, then locked.
    private func lockedSandbox() throws -> (SecretServiceSandbox, SecretServiceStore) {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        do {
            let store = try SecretServiceStore(environment: sandbox.environment)
            try Keyring(service: "test.unlock", store: store).set(Samples.credentials(password: "kept-secret"), forKey: "work")
            try sandbox.lockDefaultCollection()
            guard try store.isLocked() else { throw ChildProcess.Failure(description: "Lock left the collection unlocked") }
            return (sandbox, store)
        } catch {
            sandbox.stop()
            throw error
        }
    }

    private func run(_ arguments: [String], input: String, in sandbox: SecretServiceSandbox) throws -> ChildProcess.Output {
        var environment = sandbox.environment
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        environment["SWIFT_KEYRING_SERVICE"] = "test.unlock"
        // Everything the library logs goes to standard error, where the test looks for the password.
        environment["SWIFT_KEYRING_LOG_LEVEL"] = "trace"
        return try ChildProcess.run(
            [Command.tool] + arguments, environment: environment, input: Data(input.utf8), timeout: .seconds(60))
    }

    /// The password appears nowhere the tool wrote.
    private func expectNoPassword(_ password: String, in output: ChildProcess.Output) {
        let everything = String(decoding: output.standardOutput, as: UTF8.self) + output.standardError
        #expect(!everything.contains(password), "the password appears in the output: \(everything)")
    }

    @Test("The right password on standard input: the collection is unlocked, exit 0, and get reads the record")
    func rightPassword() throws {
        let (sandbox, store) = try lockedSandbox()
        defer { sandbox.stop() }
        let unlock = try run(["unlock"], input: sandbox.keyringPassword + "\n", in: sandbox)
        #expect(unlock.status == 0, "\(unlock.standardError)")
        #expect(
            String(decoding: unlock.standardOutput, as: UTF8.self).contains("Unlocked /org/freedesktop/secrets/collection/login"))
        expectNoPassword(sandbox.keyringPassword, in: unlock)
        #expect(try store.isLocked() == false)
        let get = try run(["get", "work"], input: "", in: sandbox)
        #expect(String(decoding: get.standardOutput, as: UTF8.self) == "kept-secret\n")
    }

    @Test("A wrong password: exit 77 with a clear message, and the collection stays locked")
    func wrongPassword() throws {
        let (sandbox, store) = try lockedSandbox()
        defer { sandbox.stop() }
        let wrong = "not-the-password-\(UUID().uuidString)"
        let unlock = try run(["unlock"], input: wrong, in: sandbox)
        #expect(unlock.status == 77)
        #expect(unlock.standardError.contains("The password does not unlock the Secret Service collection; it stays locked."))
        #expect(unlock.standardOutput.isEmpty)
        expectNoPassword(wrong, in: unlock)
        #expect(try store.isLocked())
        #expect(sandbox.daemonIsRunning)
    }

    @Test("No password on standard input: exit 65, nothing sent, still locked")
    func noPassword() throws {
        let (sandbox, store) = try lockedSandbox()
        defer { sandbox.stop() }
        let unlock = try run(["unlock"], input: "", in: sandbox)
        #expect(unlock.status == 65)
        #expect(unlock.standardError.contains("No password was given on standard input"))
        #expect(try store.isLocked())
    }

    @Test("The library's unlock(password:): the right one unlocks, a wrong one is .wrongPassphrase")
    func libraryUnlock() throws {
        let (sandbox, store) = try lockedSandbox()
        defer { sandbox.stop() }
        #expect(throws: KeyringError.wrongPassphrase) { try store.unlock(password: "wrong") }
        #expect(try store.isLocked())
        try store.unlock(password: sandbox.keyringPassword)
        #expect(try store.isLocked() == false)
    }

    @Test("An unlocked collection: exit 0, saying so, and no password is read")
    func alreadyUnlocked() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let unlock = try run(["unlock"], input: "wrong-but-unread", in: sandbox)
        #expect(unlock.status == 0, "\(unlock.standardError)")
        #expect(String(decoding: unlock.standardOutput, as: UTF8.self).contains("is already unlocked; no password was read."))
    }

    @Test("No default collection: unlock creates it with the password, writes go there, and the password unlocks it")
    func createsDefaultCollection() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemonWithoutCollection)
        defer { sandbox.stop() }
        let password = "new-keyring-\(UUID().uuidString)"
        let create = try run(["unlock"], input: password + "\n", in: sandbox)
        #expect(create.status == 0, "\(create.standardError)")
        #expect(String(decoding: create.standardOutput, as: UTF8.self).contains("Created the default collection"))
        expectNoPassword(password, in: create)

        let store = try SecretServiceStore(environment: sandbox.environment)
        let inUse = try store.collectionInUse()
        #expect(inUse.reason == "the default alias names it")
        #expect(inUse.path != "/org/freedesktop/secrets/collection/session")
        let keyring = try Keyring(service: "test.unlock", store: store)
        try keyring.set(Samples.credentials(password: "kept-secret"), forKey: "work")

        try sandbox.lockDefaultCollection()
        #expect(try store.isLocked())
        let wrong = try run(["unlock"], input: "wrong", in: sandbox)
        #expect(wrong.status == 77)
        #expect(try store.isLocked())
        let right = try run(["unlock"], input: password, in: sandbox)
        #expect(right.status == 0, "\(right.standardError)")
        #expect(try store.isLocked() == false)
        #expect(try keyring.password(forKey: "work") == "kept-secret")
    }

    @Test("unlock --collection names a collection that does not exist: exit 69, naming it")
    func missingCollection() throws {
        let (sandbox, _) = try lockedSandbox()
        defer { sandbox.stop() }
        let unlock = try run(["unlock", "--collection", "no-such-keyring"], input: "whatever", in: sandbox)
        #expect(unlock.status == 69)
        #expect(unlock.standardError.contains("\"no-such-keyring\""), "\(unlock.standardError)")
    }
}
