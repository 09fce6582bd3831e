import Foundation
import SwiftKeyring

/// Encrypted file stores on real files in private temporary folders.
package enum FileStoreFixture {
    /// A cost far below the default, so tests that open many stores stay fast.
    /// Only `EncryptedFileSecretTests` uses the real default cost.
    package static let cheapKDF = Argon2idParameters(iterations: 1, memoryKiB: 64, parallelism: 1)

    /// 32 random bytes.
    package static func randomKey() -> Data {
        Data((0..<FileStoreSecret.keyLength).map { _ in UInt8.random(in: .min ... .max) })
    }

    /// The path of a keyring file (not created) in a new private folder.
    package static func newFileURL() throws -> URL {
        try TemporaryFolder.make().appendingPathComponent("keyring.skr")
    }

    /// A raw key written to a 0600 file in a new private folder.
    package static func keyFile(_ key: Data = randomKey()) throws -> URL {
        let url = try TemporaryFolder.make().appendingPathComponent("keyring.key")
        try writePrivate(key, to: url)
        return url
    }

    /// Writes `data` to a new file that is mode 0600 from its creation.
    package static func writePrivate(_ data: Data, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// A store on a new file with a random raw key.
    package static func store(url: URL? = nil, key: Data = randomKey()) throws -> EncryptedFileStore {
        try EncryptedFileStore(url: url ?? newFileURL(), secret: .key(key))
    }

    /// The permission bits of `url`.
    package static func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
