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

    /// Gives `path` a POSIX access ACL of `entries` (tag, permissions, id) with python3's setxattr
    /// (Debian's base has no setfacl): USER_OBJ 0x01, USER 0x02, GROUP_OBJ 0x04, MASK 0x10, OTHER 0x20.
    private func setACL(_ path: String, _ entries: [(Int, Int, Int)]) throws {
        let listed = entries.map { "(\($0.0),\($0.1),\($0.2))" }.joined(separator: ",")
        let script = """
            import os, struct, sys
            data = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', t, p, i) for t, p, i in [\(listed)])
            os.setxattr(sys.argv[1], 'system.posix_acl_access', data)
            """
        let result = try Command.run("python3", ["-c", script, path])
        #expect(result.status == 0, "setxattr: \(result.stderr)")
    }

    @Test(
        "A root-owned key file read through an ACL is judged by its entries: this user's alone is taken, another's refused",
        .enabled(if: geteuid() == 0, "the file must be root's"))
    func systemdCredentialACL() throws {
        let none: Int = 0xFFFF_FFFF
        let key = try FileStoreFixture.keyFile()
        // Mode 0400 plus `user:<me>:r`: `ls -l` shows 0440, the group bits being the ACL's mask.
        try setACL(key.path, [(0x01, 4, none), (0x02, 4, Int(geteuid())), (0x04, 0, none), (0x10, 4, none), (0x20, 0, none)])
        var info = stat()
        #expect(stat(key.path, &info) == 0 && info.st_mode & 0o777 == 0o440)
        _ = try store(.keyFile(key), at: try FileStoreFixture.newFileURL())
        // The same with `user:65534:r` besides: refused, naming that user.
        try setACL(
            key.path,
            [(0x01, 4, none), (0x02, 4, Int(geteuid())), (0x02, 4, 65534), (0x04, 0, none), (0x10, 4, none), (0x20, 0, none)])
        let url = try FileStoreFixture.newFileURL()
        let error = try #require(throws: KeyringError.self) { try store(.keyFile(key), at: url) }
        #expect(error.code == .insecurePermissions && error.reason == "its ACL lets user 65534 read it; setfacl -x u:65534 it")
        // And `group::r` (the file's group may read): refused as well.
        try setACL(key.path, [(0x01, 4, none), (0x02, 4, Int(geteuid())), (0x04, 4, none), (0x10, 4, none), (0x20, 0, none)])
        let group = try #require(throws: KeyringError.self) { try store(.keyFile(key), at: url) }
        #expect(group.reason == "its ACL lets its group read it; setfacl -m g::- it")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
