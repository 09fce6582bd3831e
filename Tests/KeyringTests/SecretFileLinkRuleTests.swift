import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Which symbolic links a key or passphrase file may be reached through: only those in folders
/// nobody but root or this user can change, as a Kubernetes Secret volume has them.
@Suite("Secret files: the link rule and the mode rule")
struct SecretFileLinkRuleTests {
    /// A Secret volume as the kubelet projects it: `key -> ..data/key`, `..data -> ..TIMESTAMP/`,
    /// the data in the timestamped folder; every folder root's (this test runs as root) and 0755.
    struct SecretVolume {
        let volume: URL
        let data: URL
        var link: URL { volume.appendingPathComponent("key") }

        init(content: Data) throws {
            volume = try TemporaryFolder.make().appendingPathComponent("secret-volume")
            data = volume.appendingPathComponent("..2026_12_02_02_45_00.123456789")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            #expect(chmod(volume.path, 0o755) == 0 && chmod(data.path, 0o755) == 0)
            try FileStoreFixture.writePrivate(content, to: data.appendingPathComponent("key"))
            #expect(symlink(data.lastPathComponent, volume.appendingPathComponent("..data").path) == 0)
            #expect(symlink("..data/key", link.path) == 0)
        }
    }

    private func store(_ secret: FileStoreSecret, at url: URL) throws -> EncryptedFileStore {
        try EncryptedFileStore(url: url, secret: secret, keyDerivation: FileStoreFixture.cheapKDF)
    }

    @Test("A key file in a Kubernetes Secret volume is read through its links")
    func kubernetesKeyFile() throws {
        let volume = try SecretVolume(content: FileStoreFixture.randomKey())
        let url = try FileStoreFixture.newFileURL()
        let secret = try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_KEY_FILE": volume.link.path])
        try Keyring(service: "s", store: try store(secret, at: url)).setDefault(try Samples.credentials())
        #expect(try Keyring(service: "s", store: try store(secret, at: url)).defaultCredentials() != nil)
    }

    @Test("A passphrase file in a Secret volume, by its variable and as a systemd credential, is read through its links")
    func kubernetesPassphraseFile() throws {
        let volume = try SecretVolume(content: Data("volume passphrase\n".utf8))
        let url = try FileStoreFixture.newFileURL()
        let secret = try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_PASSPHRASE_FILE": volume.link.path])
        try Keyring(service: "s", store: try store(secret, at: url)).setDefault(try Samples.credentials())
        // `$CREDENTIALS_DIRECTORY/swift-keyring.passphrase` as a link into the same volume.
        let credentials = try TemporaryFolder.make()
        #expect(symlink(volume.link.path, credentials.appendingPathComponent("swift-keyring.passphrase").path) == 0)
        let credential = try FileStoreSecret.resolve(environment: ["CREDENTIALS_DIRECTORY": credentials.path])
        #expect(try Keyring(service: "s", store: try store(credential, at: url)).defaultCredentials() != nil)
    }

    @Test(
        "The same link in a folder another user owns is refused, naming that folder, and nothing is written",
        .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func foreignFolder() throws {
        for owned in [\SecretVolume.volume, \SecretVolume.data] {
            let volume = try SecretVolume(content: FileStoreFixture.randomKey())
            let folder = volume[keyPath: owned]
            #expect(chown(folder.path, 65534, 65534) == 0)
            let url = try FileStoreFixture.newFileURL()
            let secret = try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_KEY_FILE": volume.link.path])
            let error = try #require(throws: KeyringError.self) { try store(secret, at: url) }
            #expect(error.code == .insecurePermissions)
            #expect(error.path == folder.path, "named \(error.path ?? "nothing")")
            #expect(error.description.contains("(the key file)"))
            #expect(error.reason?.contains("belongs to user 65534") == true)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test("A link in a folder its group or others may write is refused, naming the folder", arguments: [0o775, 0o757])
    func writableFolder(mode: Int) throws {
        let volume = try SecretVolume(content: FileStoreFixture.randomKey())
        #expect(chmod(volume.volume.path, mode_t(mode)) == 0)
        let url = try FileStoreFixture.newFileURL()
        let secret = try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_KEY_FILE": volume.link.path])
        let error = try #require(throws: KeyringError.self) { try store(secret, at: url) }
        #expect(error.code == .insecurePermissions && error.path == volume.volume.path)
        #expect(error.reason?.contains("lets others change what is in it") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(
        "A key or passphrase file only its owner may read is used; one its group or others may read is refused",
        arguments: [(0o600, true), (0o400, true), (0o640, false), (0o440, false), (0o604, false), (0o620, false)])
    func ownerOnly(mode: Int, accepted: Bool) throws {
        let key = try FileStoreFixture.keyFile()
        #expect(chmod(key.path, mode_t(mode)) == 0)
        let url = try FileStoreFixture.newFileURL()
        if accepted {
            _ = try store(.keyFile(key), at: url)
        } else {
            let error = try #require(throws: KeyringError.self) { try store(.keyFile(key), at: url) }
            #expect(error.code == .insecurePermissions && error.path == key.path)
            #expect(error.reason?.hasSuffix("must be readable by its owner only; chmod 600 it") == true)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }
}
