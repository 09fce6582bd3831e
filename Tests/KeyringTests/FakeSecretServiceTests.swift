import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// What the store does when the Secret Service answers what no well-behaved
/// daemon should (issue 26): each test starts a fake daemon
/// (`FakeSecretService`) on a bus of its own, writes its records while the fake
/// behaves, then turns on one misbehaviour and checks what a user would notice.
/// The tests need no wrapper script; they fail, never skip, when the fake cannot start.
@Suite("The store against a misbehaving Secret Service")
struct FakeSecretServiceTests {
    private static let service = "fake-ours"

    /// A keyring on a fresh store, so nothing a previous store remembered (item paths) is reused.
    private static func keyring(_ fake: FakeSecretService) throws -> Keyring {
        try Keyring(service: service, store: fake.makeStore())
    }

    @Test("An item of another service among the hits is never read, listed or overwritten")
    func foreignHitIgnored() throws {
        let fake = try FakeSecretService(.normal)
        try Self.keyring(fake).set(try Samples.credentials(password: "our-password"), forKey: "work")
        try fake.setMode(.foreignHit)

        let keyring = try Self.keyring(fake)
        #expect(try keyring.password(forKey: "work") == "our-password")
        #expect(try keyring.credentials(forKey: "work")?.password == "our-password")
        #expect(try keyring.list().map(\.key) == ["work"])
        // A write changes our item only: the foreign one is still there beside it.
        try keyring.set(try Samples.credentials(password: "changed"), forKey: "work")
        #expect(try Self.keyring(fake).password(forKey: "work") == "changed")
        #expect(try fake.itemCount() == 2)
    }

    @Test("Attributes of the wrong type make a write fail, naming them, and add no item")
    func wrongAttributesTypeRefused() throws {
        let fake = try FakeSecretService(.normal)
        try Self.keyring(fake).set(try Samples.credentials(password: "first"), forKey: "work")
        try fake.setMode(.wrongAttributesType)

        let keyring = try Self.keyring(fake)
        for attempt in 1...3 {
            #expect("attempt \(attempt)") {
                try keyring.set(try Samples.credentials(password: "second-\(attempt)"), forKey: "work")
            } throws: { error in
                guard let error = error as? KeyringError else { return false }
                if error.code == .notFound { return false }
                return String(describing: error).contains("attributes")
            }
        }
        #expect(try fake.itemCount() == 1)
        try fake.setMode(.normal)
        #expect(try Self.keyring(fake).password(forKey: "work") == "first")
    }

    @Test("Secrets of the wrong type make a read fail, rather than find no record")
    func wrongSecretsTypeRefused() throws {
        let fake = try FakeSecretService(.normal)
        try Self.keyring(fake).set(try Samples.credentials(password: "ours"), forKey: "work")
        try fake.setMode(.wrongSecretsType)

        let keyring = try Self.keyring(fake)
        for read in [{ _ = try keyring.password(forKey: "work") }, { _ = try keyring.credentials(forKey: "work") }] {
            #expect(throws: KeyringError.self) { try read() }
        }
    }

    @Test("A Locked property sent as a string is an error, not \"unlocked\"")
    func lockedAsStringRefused() throws {
        let fake = try FakeSecretService(.lockedAsString)
        let store = try fake.makeStore()
        #expect(throws: KeyringError.self) { _ = try store.isLocked() }
    }

    @Test("A 3 MiB stored password is refused, naming the field")
    func hugeSecretRefused() throws {
        let fake = try FakeSecretService(.normal)
        try Self.keyring(fake).set(try Samples.credentials(password: "ours"), forKey: "work")
        try fake.setMode(.hugeSecret)

        let keyring = try Self.keyring(fake)
        for read in [{ _ = try keyring.password(forKey: "work") }, { _ = try keyring.credentials(forKey: "work") }] {
            #expect {
                try read()
            } throws: { error in
                guard let error = error as? KeyringError, error.code == .invalidRecord, let field = error.field else {
                    return false
                }
                return field == "password"
            }
        }
    }

    @Test("A 60 MiB answer is refused before it is read: the reading process stays under 64 MiB")
    func giantSecretRefusedUnread() throws {
        let fake = try FakeSecretService(.normal)
        try Self.keyring(fake).set(try Samples.credentials(password: "ours"), forKey: "work")
        try fake.setMode(.giantSecret)
        // Another process, so that its peak is the read's alone.
        let run = try ChildProcess.run(
            [TestWorker.executable.path, "secret-service-read-memory", Self.service, "work"], environment: fake.environment,
            timeout: .seconds(60))
        let line = String(decoding: run.standardOutput, as: UTF8.self)
        var fields: [String: String] = [:]
        for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        #expect(run.status == 0, "\(run.standardError)")
        // The connection refuses the message by its length: the read fails as the bus's limit.
        #expect(fields["outcome"] == "backend", "\(line) \(run.standardError)")
        let peak = Int(fields["peak"] ?? "") ?? .max
        #expect(peak < 64 * 1024, "the reading process peaked at \(peak) KiB: \(line)")
    }

    @Test("A dismissed confirmation of a new item is named as such, nothing is stored, and the tool exits 69 saying so")
    func dismissedCreateConfirmation() throws {
        let fake = try FakeSecretService(.dismissCreate)
        let sentence = "The confirmation to store the new item in the Secret Service was dismissed; nothing was stored."
        #expect {
            try Self.keyring(fake).set(try Samples.credentials(password: "never-stored"), forKey: "work")
        } throws: { error in
            guard let error = error as? KeyringError else { return false }
            return error.code == .confirmationDismissed && error.place == .secretService && error.description == sentence
        }
        #expect(try fake.itemCount() == 0)

        var environment = fake.environment
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        let set = try Command.run(
            Command.tool, ["set", "--service", Self.service, "work", "--username", "alice", "--url", "https://x.example"],
            environment: environment,
            stdin: "never-stored")
        #expect(set.status == 69)
        #expect(set.stderr == "swift-keyring: \(sentence)\n")
        #expect(try fake.itemCount() == 0)
    }

    @Test("After another daemon takes the name over, a store's calls still reach the daemon that greeted it")
    func takeoverKeepsOneDaemonPerStore() throws {
        let fake = try FakeSecretService(.normal)
        let store = try fake.makeStore()
        let keyring = try Keyring(service: "test.fake", store: store)
        try keyring.set(try Samples.credentials(password: "first-daemon"), forKey: "work")
        // The new owner holds nothing; the first daemon keeps running and holds the record.
        let replacement = try fake.startReplacement()
        defer { ChildProcess.terminate(replacement) }

        // Search, session and secret all go to the first daemon: a read never mixes two.
        #expect(try keyring.password(forKey: "work") == "first-daemon")
        #expect(try keyring.credentials(forKey: "work")?.password == "first-daemon")
        // A store made now greets the new owner, which holds no record.
        #expect(try Keyring(service: "test.fake", store: fake.makeStore()).password(forKey: "work") == nil)
    }

    @Test("A read whose daemon leaves mid-call is retried within what is left of its one bound, not with a new one")
    func reopenKeepsTheCallsBound() throws {
        let fake = try FakeSecretService(.normal)
        let bound = Duration.seconds(20)
        let keyring = try Keyring(
            service: "test.fake", store: SecretServiceStore(timeout: bound, environment: fake.environment))
        try keyring.set(try Samples.credentials(password: "ours"), forKey: "work")
        // The daemon the store greeted stalls the search and leaves 10 s into the call; the one that
        // took its name meanwhile holds the search the store then sends it until 24 s after the start,
        // and answers "no such item". The one bound ends at 20 s, before that answer: the read times
        // out. A bound renewed at the reopen would end at 30 s or later and take the answer. No clock
        // decides between the two: the fake answers by the machine's monotonic clock, and load can
        // only make the leave and the answer later, which moves neither outcome. Load decides only if
        // the reopen takes over 10 s or the call starts over 4 s after `started`.
        try fake.setMode(.stallSearch)
        let replacement = try fake.startReplacement(.answerSearchLate)
        defer { ChildProcess.terminate(replacement) }

        let started = monotonicMicroseconds()
        try fake.answerHeldSearches(at: started + 24_000_000)
        fake.leave(after: .seconds(10))
        let clock = ContinuousClock.now
        // A timeout, of the one bound: not a record, nor any error (a reopen that failed would be another).
        #expect {
            _ = try keyring.password(forKey: "work")
        } throws: { error in
            guard let error = error as? KeyringError, error.code == .timedOut else { return false }
            return error.seconds == bound.inSeconds
        }
        let took = ContinuousClock.now - clock
        // What the new daemon saw: the store did reopen on it and searched there.
        let seen = fake.replacementLog()
        #expect(seen.contains("search held\n"), "the store never searched on the new daemon: \(seen)")
        print("reopenKeepsTheCallsBound: the read ended after \(took) with a \(bound) bound")
    }
}
