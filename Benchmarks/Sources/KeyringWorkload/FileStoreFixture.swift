import Foundation
import SwiftKeyring

/// The folder the file-store benchmarks share between their processes: mode
/// 0700, with a random 32-byte key file (mode 0600) made on first use.
public struct FileStoreFixture: Sendable {
    /// The folder.
    public let folder: URL
    /// The raw key, as a file, for `FileStoreSecret.keyFile`.
    public let keyFile: URL
    /// The passphrase of the files opened through Argon2id: a fixture, never printed.
    public let passphrase = "benchmark passphrase, not a secret"

    /// Makes the folder and key file when missing.
    /// - Throws: a file-system error when the folder cannot be made.
    public init(folder: URL) throws {
        self.folder = folder
        self.keyFile = folder.appending(path: "bench.key")
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if !files.fileExists(atPath: keyFile.path) {
            var key = [UInt8](repeating: 0, count: FileStoreSecret.keyLength)
            var generator = SystemRandomNumberGenerator()
            for index in key.indices { key[index] = generator.next() }
            guard files.createFile(atPath: keyFile.path, contents: Data(key), attributes: [.posixPermissions: 0o600]) else {
                throw WorkloadFailure("cannot write the key file in \(folder.path)")
            }
        }
    }

    /// The keyring file called `name` in the folder.
    public func url(_ name: String) -> URL {
        folder.appending(path: "\(name).keyring")
    }
}
