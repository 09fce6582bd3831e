import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

/// The library logs to the logger its caller gives, and nowhere else; no line holds a secret.
@Suite("Passed-in loggers")
struct PassedLoggerTests {
    @Test("SecretStore's quick path logs a failed write to the logger it was given, naming the key, never the value")
    func secretStoreLogsToItsLogger() throws {
        let log = CapturedLog()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: MemoryStore())
        let secrets = try SecretStore(keyring: keyring, account: "alice", logger: log.logger)
        secrets["big"] = "hunter2-" + String(repeating: "x", count: 17 * 1024 * 1024)
        #expect(secrets["big"] == nil)
        #expect(log.text.contains("secret store write failed"))
        #expect(log.text.contains("key=big"))
        #expect(!log.text.contains("hunter2"))
    }

    @Test("A session and a secret store log where their keyring logs, unless given another logger")
    func sessionFollowsKeyringLogger() throws {
        let log = CapturedLog()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: MemoryStore(), logger: log.logger)
        let password = "pw-\(UUID().uuidString)"
        try keyring.set(
            try Credentials(username: "alice", password: password, url: URL(string: "https://x.example")!), forKey: "work")
        #expect(log.text.contains("stored credentials"))

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let session = try Session<TestProperty>(keyring: keyring, requiredProperties: [.token], stateDirectory: folder.url)
        let token = "token-\(UUID().uuidString)"
        try session.set(token, for: .token)
        #expect(log.text.contains("saved session property property=token"))

        let secrets = try SecretStore(keyring: keyring, account: "alice")
        secrets[""] = "never stored"
        #expect(log.text.contains("secret store write failed"))

        let other = CapturedLog()
        let quiet = try Session<TestProperty>(
            keyring: keyring, requiredProperties: [.token], stateDirectory: folder.url, logger: other.logger
        )
        try quiet.logout()
        #expect(other.text.contains("logged out"))
        #expect(!log.text.contains("logged out"))

        for text in [log.text, other.text] {
            #expect(!text.contains(password))
            #expect(!text.contains(token))
            #expect(!text.contains("never stored"))
        }
    }
}
