import Foundation

/// A throwaway folder and a clean environment for runs of the tool, so no test
/// sees the developer's keyring or another test's file.
final class Sandbox: Sendable {
    let folder: URL
    /// A passphrase made for this sandbox only; never printed.
    let passphrase: String

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keyring-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        passphrase = "sandbox-passphrase-\(UUID().uuidString)"
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var keyringFile: URL { folder.appendingPathComponent("data/keyring.skr") }

    /// The environment a user of the file store would have: a passphrase in the environment,
    /// the file in this sandbox, and nothing inherited from the test process's keyring settings.
    func fileEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = baseEnvironment()
        environment["SWIFT_KEYRING_BACKEND"] = "file"
        environment["SWIFT_KEYRING_FILE"] = keyringFile.path
        environment["SWIFT_KEYRING_PASSPHRASE"] = passphrase
        environment.merge(extra) { $1 }
        return environment
    }

    /// The environment of a desktop session: the private test bus of `Scripts/with-secret-service.sh`.
    func secretServiceEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = baseEnvironment()
        environment["SWIFT_KEYRING_BACKEND"] = "secret-service"
        if let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] {
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus
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
