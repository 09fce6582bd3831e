import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Automatic selection as a user meets it: the Secret Service where it runs
/// (even locked), the encrypted file where no bus or no daemon answers, and
/// `SWIFT_KEYRING_BACKEND` forcing each store.
@Suite("Store selection", .serialized)
struct StoreSelectionTests {
    /// An environment whose encrypted file lives in `folder`, opened with a random raw key.
    private func fileEnvironment(_ base: [String: String], folder: URL) throws -> [String: String] {
        var environment = base
        let keyFile = try FileStoreFixture.keyFile()
        environment["SWIFT_KEYRING_FILE"] = folder.appendingPathComponent("keyring.skr").path
        environment["SWIFT_KEYRING_KEY_FILE"] = keyFile.path
        environment["SWIFT_KEYRING_LIBSECRET_FILE"] = folder.appendingPathComponent("keyrings/default.keyring").path
        environment.removeValue(forKey: "SWIFT_KEYRING_BACKEND")
        environment.removeValue(forKey: "SWIFT_KEYRING_PASSPHRASE")
        return environment
    }

    @Test("No session bus: the encrypted file, and the reason says so")
    func noBus() throws {
        let folder = try TemporaryFolder.make()
        var environment = try fileEnvironment(ProcessInfo.processInfo.environment, folder: folder)
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(folder.path)/no-such-bus"
        let keyring = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection.kind == .file)
        #expect(keyring.selection.reason.hasPrefix("no session bus"))
        #expect(keyring.selection.reason.hasSuffix("so the encrypted file at \(folder.path)/keyring.skr"))
        try keyring.set(try Samples.credentials("alice"), forKey: "k")
        #expect(try keyring.credentials(forKey: "k")?.username == "alice")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("keyring.skr").path))
    }

    @Test("A bus without the daemon: the encrypted file")
    func busWithoutDaemon() throws {
        let sandbox = try SecretServiceSandbox(.busOnly)
        defer { sandbox.stop() }
        let folder = try TemporaryFolder.make()
        let environment = try fileEnvironment(sandbox.environment, folder: folder)
        let keyring = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection.kind == .file)
        #expect(keyring.selection.reason.hasPrefix("no Secret Service daemon"))
    }

    @Test("A running daemon: the Secret Service")
    func daemon() throws {
        let environment = try fileEnvironment(PrivateSecretService.environment(), folder: TemporaryFolder.make())
        let selection = try Keyring.selection(for: KeyringConfiguration(environment: environment))
        #expect(
            selection
                == StoreSelection(kind: .secretService, reason: "a session bus answers and org.freedesktop.secrets is there"))
    }

    @Test("A daemon chosen automatically keeps records in the daemon, not in the file")
    func daemonChosenAutomaticallyKeepsRecords() throws {
        // The store opens on the probe's bus connection: a write and reads through it must reach the daemon.
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let folder = try TemporaryFolder.make()
        let environment = try fileEnvironment(sandbox.environment, folder: folder)
        let keyring = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection.kind == .secretService)
        try keyring.set(try Samples.credentials("alice"), forKey: "k")
        #expect(try keyring.credentials(forKey: "k")?.username == "alice")
        let again = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        #expect(try again.credentials(forKey: "k")?.username == "alice")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("keyring.skr").path))
    }

    @Test("A locked daemon is chosen all the same, and its calls say .locked")
    func lockedDaemon() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        try sandbox.lockDefaultCollection()
        let environment = try fileEnvironment(sandbox.environment, folder: TemporaryFolder.make())
        let keyring = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection.kind == .secretService)
        #expect(BoundedCall.keyringError { try keyring.set(try Samples.credentials("alice"), forKey: "k") } == .locked)
    }

    @Test(
        "SWIFT_KEYRING_BACKEND forces each store", arguments: [StoreKind.memory, .file, .secretService, .libsecretFile, .kernel])
    func forced(kind: StoreKind) throws {
        var environment = try fileEnvironment(PrivateSecretService.environment(), folder: TemporaryFolder.make())
        environment["SWIFT_KEYRING_BACKEND"] = kind.rawValue
        let keyring = try Keyring(service: "test.selection", configuration: KeyringConfiguration(environment: environment))
        // libsecret's file also says which secret keys it (see LibsecretPortalSelectionTests).
        #expect(keyring.selection.kind == kind && keyring.selection.reason == "forced by SWIFT_KEYRING_BACKEND")
        #expect(keyring.store.identity.kind == kind)
    }

    @Test("An unknown SWIFT_KEYRING_BACKEND is refused, naming the variable")
    func unknownBackend() throws {
        let environment = ["SWIFT_KEYRING_BACKEND": "carrier-pigeon"]
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_BACKEND",
                reason: "must be one of auto, secret-service, file, memory, libsecret-file, kernel, not \"carrier-pigeon\"")
        ) {
            try Keyring(service: "s", configuration: KeyringConfiguration(environment: environment))
        }
    }
}
