import Foundation
import SwiftKeyring

/// libsecret keyring files in private temporary folders, and `secret-tool` run on them
/// with libsecret's file backend keyed by a password (no portal, no bus).
package enum LibsecretFileFixture {
    /// The path of a keyring file (not created) in a new private folder.
    package static func newFileURL() throws -> URL {
        try TemporaryFolder.make().appendingPathComponent("default.keyring")
    }

    /// A password of letters and digits, as an environment variable can carry it.
    package static func randomPassword() -> String {
        String((0..<24).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    /// A store on `url` (a new file when `nil`) with `password` (a random one when `nil`).
    package static func store(url: URL? = nil, password: String? = nil) throws -> LibsecretFileStore {
        try LibsecretFileStore(url: url ?? newFileURL(), key: .secret(.passphrase(password ?? randomPassword())))
    }

    /// Runs `secret-tool` with libsecret's file backend on `url`, keyed by `password`, with no session bus.
    package static func secretTool(
        _ arguments: [String], url: URL, password: String, stdin: String? = nil
    ) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        // No bus to find: no address, and a runtime folder with no `bus` socket in it.
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = try TemporaryFolder.make().path
        environment["SECRET_BACKEND"] = "file"
        environment["SECRET_FILE_TEST_PATH"] = url.path
        environment["SECRET_FILE_TEST_PASSWORD"] = password
        return try Command.run("secret-tool", arguments, environment: environment, stdin: stdin, timeout: 30)
    }
}

extension LibsecretFileFixture {
    /// The lowest PBKDF2 cost the store reads, for tests that open a file thousands of times.
    package static let cheapIterations: UInt32 = 1_000

    /// A store that makes its new file with the lowest cost read.
    package static func cheapStore(url: URL, password: String) throws -> LibsecretFileStore {
        try LibsecretFileStore(url: url, key: .secret(.passphrase(password)), newFileIterations: cheapIterations)
    }
}
