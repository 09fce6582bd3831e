import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The keyrings people have: no default collection (WSL, a minimal session), a
/// collection named by the caller, on a real gnome-keyring of each test's own.
/// They fail, never skip, when the daemon cannot start.
@Suite("Secret Service collections")
struct SecretServiceCollectionTests {
    private static let sessionCollection = "/org/freedesktop/secrets/collection/session"

    /// A store on `sandbox`'s bus.
    private func store(
        _ sandbox: SecretServiceSandbox, collection: String? = nil, sessionFallback: Bool = false,
        promptTimeout: Duration = .seconds(30)
    ) throws -> SecretServiceStore {
        try SecretServiceStore(
            timeout: .seconds(10), promptTimeout: promptTimeout, environment: sandbox.environment,
            collection: collection, sessionFallback: sessionFallback)
    }

    @Test("No default collection, no prompt can be shown, no fallback asked: a write fails naming the situation")
    func noDefaultCollection() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemonWithoutCollection)
        defer { sandbox.stop() }
        let store = try store(sandbox)
        let keyring = try Keyring(service: "test.collection", store: store)
        let error = BoundedCall.keyringError(within: .seconds(60)) { try keyring.set(Samples.credentials(), forKey: "work") }
        #expect(error?.unavailability?.kind == .noCollection, "\(String(describing: error))")
        let message = error?.description ?? ""
        #expect(message.contains("no default collection"), "\(message)")
        #expect(message.contains("SWIFT_KEYRING_SESSION_FALLBACK"), "\(message)")
        #expect(try keyring.list().isEmpty)
        #expect(try store.collectionInUse().path == nil)
        #expect(sandbox.daemonIsRunning)
    }

    @Test("No default collection, the session fallback asked for: the record goes to the session collection")
    func sessionFallback() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemonWithoutCollection)
        defer { sandbox.stop() }
        let before = try store(sandbox, sessionFallback: true).collectionInUse()
        #expect(before.path == nil)
        #expect(before.reason.contains("session collection"), "\(before.reason)")
        let store = try store(sandbox, sessionFallback: true)
        let keyring = try Keyring(service: "test.collection", store: store)
        let stored = try Samples.credentials("kept")
        try keyring.set(stored, forKey: "work")
        #expect(try keyring.credentials(forKey: "work") == stored)
        let inUse = try store.collectionInUse()
        #expect(inUse.path == Self.sessionCollection)
        #expect(inUse.reason.contains("gone at logout"), "\(inUse.reason)")
        // The item itself lies in the session collection.
        #expect(try items(in: Self.sessionCollection, sandbox).count == 1)
    }

    @Test("No default collection, a prompt answered with a new password: the daemon creates the default collection")
    func createdByPrompt() throws {
        let sandbox = try SecretServiceSandbox(
            .busAndDaemonWithoutCollection, prompter: MockPrompter(delay: .milliseconds(200), answers: [.password]))
        defer { sandbox.stop() }
        let keyring = try Keyring(service: "test.collection", store: store(sandbox, sessionFallback: true))
        let stored = try Samples.credentials("created")
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.set(stored, forKey: "work") }
        #expect(throws: Never.self) { try result?.get() }
        // A new store finds it through the alias the daemon set, and the record in it.
        let fresh = try store(sandbox)
        let inUse = try fresh.collectionInUse()
        let path = try #require(inUse.path)
        #expect(path != Self.sessionCollection)
        #expect(inUse.reason == "the default alias names it")
        #expect(try Keyring(service: "test.collection", store: fresh).credentials(forKey: "work") == stored)
        #expect(try items(in: path, sandbox).count == 1)
        #expect(try items(in: Self.sessionCollection, sandbox).isEmpty)
    }

    @Test("With the default alias set, doctor's collection is the one it names")
    func aliasSet() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let inUse = try store(sandbox, sessionFallback: true).collectionInUse()
        #expect(inUse.path == "/org/freedesktop/secrets/collection/login")
        #expect(inUse.reason == "the default alias names it")
    }

    @Test("A named collection: records written there are not in the default one and vice versa; removeAll stays within it")
    func namedCollection() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        // The session collection, named by its alias, beside the login collection, named by "default".
        let inSession = try Keyring(service: "test.collection", store: store(sandbox, collection: "session"))
        let inLogin = try Keyring(service: "test.collection", store: store(sandbox, collection: "default"))
        let sessionRecord = try Samples.credentials("in-session")
        let loginRecord = try Samples.credentials("in-login")
        try inSession.set(sessionRecord, forKey: "work")
        try inSession.set(sessionRecord, forKey: "only-session")
        try inLogin.set(loginRecord, forKey: "work")
        try inLogin.set(loginRecord, forKey: "only-login")

        #expect(try inSession.credentials(forKey: "work") == sessionRecord)
        #expect(try inLogin.credentials(forKey: "work") == loginRecord)
        #expect(try inSession.credentials(forKey: "only-login") == nil)
        #expect(try inLogin.credentials(forKey: "only-session") == nil)
        #expect(try inSession.list().map(\.key) == ["only-session", "work"])
        #expect(try inLogin.list().map(\.key) == ["only-login", "work"])
        #expect(try items(in: Self.sessionCollection, sandbox).count == 2)
        #expect(try items(in: "/org/freedesktop/secrets/collection/login", sandbox).count == 2)

        #expect(try inSession.remove(forKey: "only-login") == false)
        #expect(try inSession.removeAll() == 2)
        #expect(try inSession.list().isEmpty)
        #expect(try inLogin.list().map(\.key) == ["only-login", "work"])
        #expect(try inLogin.credentials(forKey: "work") == loginRecord)
    }

    @Test("A collection named by its label is found; one that does not exist is a clear error naming it")
    func namedByLabel() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        // gnome-keyring labels the login keyring "Login".
        let byLabel = try store(sandbox, collection: "Login")
        #expect(try byLabel.collectionInUse().path == "/org/freedesktop/secrets/collection/login")
        try Keyring(service: "test.collection", store: byLabel).set(Samples.credentials(), forKey: "work")

        let missing = try Keyring(service: "test.collection", store: store(sandbox, collection: "no-such-keyring"))
        let calls: [@Sendable () throws -> Void] = [
            { _ = try missing.credentials(forKey: "work") }, { try missing.set(Samples.credentials(), forKey: "x") },
        ]
        for call in calls {
            let error = BoundedCall.keyringError(within: .seconds(30), call)
            #expect(error?.unavailability?.kind == .noCollection, "\(String(describing: error))")
            #expect(error?.description.contains("\"no-such-keyring\"") == true, "\(String(describing: error))")
        }
        #expect(try items(in: "/org/freedesktop/secrets/collection/login", sandbox).count == 1)
    }

    @Test("The tool with no default collection: set fails (69) without --session-fallback, works with it; doctor says which")
    func toolWithoutDefaultCollection() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemonWithoutCollection)
        defer { sandbox.stop() }
        func tool(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, errors: String) {
            var environment = sandbox.environment
            environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
            environment["SWIFT_KEYRING_SERVICE"] = "test.collection"
            let result = try ChildProcess.run(
                [Command.tool] + arguments, environment: environment, input: Data(input.utf8), timeout: .seconds(60))
            return (result.status, String(decoding: result.standardOutput, as: UTF8.self), result.standardError)
        }
        let refused = try tool(["set", "work", "--username", "alice", "--url", "https://example.com"], input: "pw")
        #expect(refused.status == 69)
        #expect(refused.errors.contains("no default collection"), "\(refused.errors)")
        let before = try tool(["doctor"])
        #expect(before.output.contains("collection:       none (no default collection"), "\(before.output)")

        let stored = try tool(
            ["set", "work", "--username", "alice", "--url", "https://example.com", "--session-fallback"], input: "pw")
        #expect(stored.status == 0, "\(stored.errors)")
        let read = try tool(["get", "work"])
        #expect(read.output == "pw\n")
        #expect(try items(in: Self.sessionCollection, sandbox).count == 1)
        let named = try tool(["doctor", "--collection", "session"])
        #expect(
            named.output.contains("collection:       \(Self.sessionCollection) (named by its alias \"session\")"),
            "\(named.output)")
    }

    /// The items of the collection at `path`, as its `Items` property lists them.
    private func items(in path: String, _ sandbox: SecretServiceSandbox) throws -> [String] {
        let output = try ChildProcess.run(
            [
                "dbus-send", "--session", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.secrets", path,
                "org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Collection", "string:Items",
            ], environment: sandbox.environment, timeout: .seconds(10))
        guard output.status == 0 else { throw ChildProcess.Failure(description: "Items of \(path): \(output.standardError)") }
        return String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("object path \"\(path)/") }.map(String.init)
    }
}
