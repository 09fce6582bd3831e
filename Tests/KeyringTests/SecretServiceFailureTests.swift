import Foundation
import InMemoryLogging
import Logging
import SwiftKeyring
import Testing

/// What a user sees when the Secret Service is missing, locked or hung. Each
/// test starts its own bus (and daemon), since it locks, stops or leaves them out.
@Suite("Secret Service failures")
struct SecretServiceFailureTests {
    /// Two ways of having no session bus at all.
    enum NoBus: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case addressToNowhere
        case noAddress

        var testDescription: String { rawValue }

        var environment: [String: String] {
            switch self {
            case .addressToNowhere:
                return ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/swift-keyring-missing-\(UUID().uuidString.prefix(8))/bus"]
            case .noAddress:
                return ["XDG_RUNTIME_DIR": "/tmp/swift-keyring-missing-\(UUID().uuidString.prefix(8))"]
            }
        }
    }

    /// The reason of the `.serviceUnavailable` that opening a store on `environment` and its
    /// first call give (the daemon is greeted with that call); `nil` (with an issue recorded)
    /// for any other outcome, a hang included.
    private func unavailableReason(_ environment: [String: String]) -> KeyringError.Unavailability? {
        let error = BoundedCall.keyringError {
            _ = try SecretServiceStore(timeout: .seconds(5), environment: environment).isLocked()
        }
        guard let error, error.code == .serviceUnavailable, let reason = error.unavailability else {
            Issue.record("expected .serviceUnavailable, got \(String(describing: error))")
            return nil
        }
        // Opening names the store it could not open.
        #expect(error.place == .secretService)
        #expect(error.description.hasPrefix("The Secret Service is unavailable: "))
        return reason
    }

    @Test("No session bus: the store is unavailable at once, saying there is no bus", arguments: NoBus.allCases)
    func noBus(_ case_: NoBus) throws {
        let reason = try #require(unavailableReason(case_.environment))
        guard reason.kind == .noSessionBus else {
            Issue.record("expected .noSessionBus, got \(reason)")
            return
        }
        #expect(!reason.detail.isEmpty)
    }

    @Test("No session bus: the probe says noBus", arguments: NoBus.allCases)
    func probeNoBus(_ case_: NoBus) {
        guard case .noBus(let reason) = SecretServiceStore.probe(environment: case_.environment) else {
            Issue.record("expected .noBus")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test("A bus without the daemon: unavailable, saying there is no daemon; the probe says noDaemon")
    func busWithoutDaemon() throws {
        let sandbox = try SecretServiceSandbox(.busOnly)
        defer { sandbox.stop() }
        let reason = try #require(unavailableReason(sandbox.environment))
        guard reason.kind == .noDaemon else {
            Issue.record("expected .noDaemon, got \(reason)")
            return
        }
        guard case .noDaemon(let probeReason) = SecretServiceStore.probe(environment: sandbox.environment) else {
            Issue.record("expected .noDaemon")
            return
        }
        #expect(probeReason.contains("org.freedesktop.secrets"))
    }

    @Test("A running daemon: the probe says available and the collection is unlocked")
    func available() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        #expect(SecretServiceStore.probe(environment: sandbox.environment) == .available)
        let store = try SecretServiceStore(timeout: .seconds(5), environment: sandbox.environment)
        #expect(try store.isLocked() == false)
    }

    @Test("A locked collection: reads, writes and removals fail with .locked, and nothing is lost")
    func locked() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let store = try SecretServiceStore(timeout: .seconds(5), environment: sandbox.environment)
        let keyring = try Keyring(service: "test.locked", store: store)
        try keyring.set(try Samples.credentials("kept"), forKey: "work")
        try sandbox.lockDefaultCollection()
        #expect(try store.isLocked())

        #expect(BoundedCall.keyringError { try keyring.credentials(forKey: "work") } == .locked)
        #expect(BoundedCall.keyringError { try keyring.password(forKey: "work") } == .locked)
        #expect(BoundedCall.keyringError { try keyring.set(try Samples.credentials("new"), forKey: "work") } == .locked)
        #expect(BoundedCall.keyringError { try keyring.set(try Samples.credentials("new"), forKey: "other") } == .locked)
        #expect(BoundedCall.keyringError { try keyring.removeAll() } == .locked)
        // Attributes stay readable while locked: the record is still there, unchanged.
        #expect(try keyring.list().map(\.username) == ["kept"])
    }

    @Test("A daemon that crashes and restarts: the same store carries on, with nothing lost, and says so in the log it was given")
    func restartedDaemon() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let log = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let store = try SecretServiceStore(timeout: .seconds(5), environment: sandbox.environment, logger: logger)
        let keyring = try Keyring(service: "test.restart", store: store)
        let before = try Samples.credentials("before")
        try keyring.set(before, forKey: "work")

        try sandbox.crashDaemon()
        // No daemon at all (the sandbox bus starts none): a clear error, within the timeout.
        let meanwhile = BoundedCall.keyringError(within: .seconds(20)) { try keyring.credentials(forKey: "work") }
        guard meanwhile?.unavailability?.kind == .noDaemon else {
            Issue.record("with the daemon gone: expected .serviceUnavailable(.noDaemon), got \(String(describing: meanwhile))")
            return
        }

        try sandbox.restartDaemon()
        // Every kind of call works on the new daemon's session, without a new store.
        #expect(try keyring.credentials(forKey: "work") == before)
        #expect(try keyring.password(forKey: "work") == before.password)
        let after = try Samples.credentials("after")
        try keyring.set(after, forKey: "work")
        try keyring.set(before, forKey: "other")
        #expect(try keyring.list().map(\.key) == ["other", "work"])
        #expect(try keyring.credentials(forKey: "work") == after)
        #expect(try store.isLocked() == false)
        #expect(try keyring.removeAll() == 2)
        #expect(try keyring.list().isEmpty)
        #expect(
            log.entries.contains {
                $0.level == .debug && $0.message == "the Secret Service daemon went away; a new session was opened"
            })
    }

    @Test("A hung daemon: calls give .timedOut within the configured timeout, never hang")
    func hungDaemon() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let store = try SecretServiceStore(timeout: .seconds(1), environment: sandbox.environment)
        let keyring = try Keyring(service: "test.hung", store: store)
        try keyring.set(try Samples.credentials(), forKey: "work")
        sandbox.freezeDaemon()

        let calls: [(String, @Sendable () throws -> Void)] = [
            ("read", { _ = try keyring.credentials(forKey: "work") }),
            ("store", { try keyring.set(try Samples.credentials(), forKey: "work") }),
            ("list", { _ = try keyring.list() }),
            ("remove", { _ = try keyring.remove(forKey: "work") }),
            ("isLocked", { _ = try store.isLocked() }),
        ]
        for (name, call) in calls {
            let error = BoundedCall.keyringError(within: .seconds(20), call)
            guard let error, error.code == .timedOut, let seconds = error.seconds else {
                Issue.record("\(name): expected .timedOut, got \(String(describing: error))")
                continue
            }
            #expect(seconds == 1, "\(name)")
        }
        let environment = sandbox.environment
        // A store greets the daemon with its first call (the calls of that call in the same flight).
        let opening = BoundedCall.keyringError(within: .seconds(20)) {
            _ = try SecretServiceStore(timeout: .seconds(1), environment: environment).isLocked()
        }
        guard opening?.code == .timedOut else {
            Issue.record("opening a store and its first call: expected .timedOut, got \(String(describing: opening))")
            return
        }
        guard case .noDaemon = SecretServiceStore.probe(timeout: .milliseconds(500), environment: environment) else {
            Issue.record("the probe should not call a hung daemon available")
            return
        }
    }
}
