import Foundation
import KeyringTestSupport
import Testing

/// A throwaway folder and a clean environment for runs of the tool, so no test
/// sees the developer's keyring or another test's file.
final class Sandbox: Sendable {
    let folder: URL
    /// A passphrase made for this sandbox only; never printed.
    let passphrase: String
    /// A raw 32-byte key in a 0600 file of this sandbox: the file store's secret unless a
    /// test is about passphrases, so most runs of the tool skip Argon2id.
    let keyFile: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keyring-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        passphrase = "sandbox-passphrase-\(UUID().uuidString)"
        keyFile = folder.appendingPathComponent("sandbox.key")
        try FileStoreFixture.writePrivate(FileStoreFixture.randomKey(), to: keyFile)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A sandbox whose passphrase-protected file holds the record `gh` (alice at github.com) with
    /// `password`, and the environment of a later shell: no passphrase anywhere.
    static func fileWithRecord(_ password: String) throws -> (Sandbox, [String: String]) {
        let sandbox = try Sandbox()
        let set = try CLI.run(
            ["set", "gh", "--username", "alice", "--url", "https://github.com"], stdin: password,
            environment: sandbox.passphraseEnvironment())
        #expect(set.status == 0, "set failed: \(set.stderr)")
        var environment = sandbox.passphraseEnvironment()
        environment["SWIFT_KEYRING_PASSPHRASE"] = nil
        return (sandbox, environment)
    }

    var keyringFile: URL { folder.appendingPathComponent("data/keyring.skr") }

    /// The environment of a host that keeps a key for the file store: the sandbox's key
    /// file, the file in this sandbox, and nothing inherited from the test process's keyring settings.
    func fileEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = baseEnvironment()
        environment["SWIFT_KEYRING_BACKEND"] = "file"
        environment["SWIFT_KEYRING_FILE"] = keyringFile.path
        environment["SWIFT_KEYRING_KEY_FILE"] = keyFile.path
        environment.merge(extra) { $1 }
        return environment
    }

    /// The environment of a person's file store: a passphrase in the environment (so
    /// Argon2id runs), the file in this sandbox; for the tests about passphrases.
    func passphraseEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = fileEnvironment()
        environment["SWIFT_KEYRING_KEY_FILE"] = nil
        environment["SWIFT_KEYRING_PASSPHRASE"] = passphrase
        environment.merge(extra) { $1 }
        return environment
    }

    /// The environment of a desktop session: the private test bus of `Scripts/with-secret-service.sh`.
    func secretServiceEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = baseEnvironment()
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        // The bus, and the runtime folder that a desktop session always has, where writers'
        // cross-process lock lives (SecretServiceWriteLock): the tool runs as it would there.
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        environment.merge(extra) { $1 }
        return environment
    }

    func baseEnvironment() -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("xdg-data").path]
        for name in ["PATH", "LANG", "LC_ALL", "TMPDIR"] {
            if let value = inherited[name] { environment[name] = value }
        }
        return environment
    }
}
