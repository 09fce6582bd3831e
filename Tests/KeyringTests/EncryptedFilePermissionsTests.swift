import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Who may read the file: only its owner, and nothing else is trusted.
@Suite("Encrypted file: permissions")
struct EncryptedFilePermissionsTests {
    @Test("A new file is 0600 in a new 0700 folder, missing parents included")
    func createdPrivate() throws {
        let base = try TemporaryFolder.make()
        let folder = base.appendingPathComponent("a/b", isDirectory: true)
        let store = try FileStoreFixture.store(url: folder.appendingPathComponent("keyring.skr"))
        try Keyring(service: "s", store: store).setDefault(try Samples.credentials())
        #expect(try FileStoreFixture.permissions(store.url) == 0o600)
        #expect(try FileStoreFixture.permissions(folder) == 0o700)
        #expect(try FileStoreFixture.permissions(base.appendingPathComponent("a")) == 0o700)
        #expect(try FileStoreFixture.permissions(store.url.appendingPathExtension("lock")) == 0o600)
        let status = try store.status()
        #expect(status.location == (try EncryptedFileStore.inspect(store.url)))
        #expect(status.location.filePermissions == 0o600 && status.location.folderPermissions == 0o700)
        #expect(status.location.permissionProblem == nil && status.location.exists && status.location.size > 0)
        #expect(status.recordCount == 1 && status.keyDerivation == "raw 32-byte key")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["keyring.skr", "keyring.skr.lock"])
    }

    @Test("A file others can read is refused and left as it was", arguments: [0o644, 0o640, 0o604, 0o660, 0o606])
    func openFile(mode: Int) throws {
        let store = try FileStoreFixture.store()
        #expect(chmod(store.url.path, mode_t(mode)) == 0)
        let before = try Data(contentsOf: store.url)
        let octal = "0" + String(mode, radix: 8)
        let reason = "its mode \(octal) lets group or other users in (it must be 0600); chmod 600 it"
        #expect(throws: KeyringError.insecurePermissions(path: store.url.path, reason: reason)) {
            try Keyring(service: "s", store: FileStoreFixture.store(url: store.url)).defaultCredentials()
        }
        #expect(throws: KeyringError.insecurePermissions(path: store.url.path, reason: reason)) {
            try Keyring(service: "s", store: store).defaultCredentials()
        }
        #expect(try store.status().location.permissionProblem == "\(store.url.path): \(reason)")
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try FileStoreFixture.permissions(store.url) == mode)
    }

    @Test("A folder others can enter is refused", arguments: [0o755, 0o750, 0o711, 0o701])
    func openFolder(mode: Int) throws {
        let folder = try TemporaryFolder.make()
        #expect(chmod(folder.path, mode_t(mode)) == 0)
        let octal = "0" + String(mode, radix: 8)
        let reason = "its mode \(octal) lets group or other users in (it must be 0700); chmod 700 it"
        #expect(throws: KeyringError.insecurePermissions(path: folder.path, reason: reason)) {
            try FileStoreFixture.store(url: folder.appendingPathComponent("keyring.skr"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("A file or folder of another user is refused", MachineNeed.root.trait())
    func otherOwner() throws {
        try MachineNeed.root.require()  // only root can give a file away
        let store = try FileStoreFixture.store()
        #expect(chown(store.url.path, 65534, 65534) == 0)
        #expect(
            throws: KeyringError.insecurePermissions(
                path: store.url.path, reason: "it belongs to user 65534, not to this user (0)")
        ) {
            try FileStoreFixture.store(url: store.url)
        }
        let folder = try TemporaryFolder.make()
        #expect(chown(folder.path, 65534, 65534) == 0)
        #expect(
            throws: KeyringError.insecurePermissions(path: folder.path, reason: "it belongs to user 65534, not to this user (0)")
        ) {
            try FileStoreFixture.store(url: folder.appendingPathComponent("keyring.skr"))
        }
    }

    @Test("A symbolic link in place of the file is refused")
    func symbolicLink() throws {
        let target = try FileStoreFixture.store()
        let link = try TemporaryFolder.make().appendingPathComponent("keyring.skr")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target.url)
        #expect(
            throws: KeyringError.insecurePermissions(path: link.path, reason: "it is a symbolic link; give the real file's path")
        ) {
            try FileStoreFixture.store(url: link)
        }
    }

    @Test("A missing file is an error when creating is not allowed, and nothing is made")
    func missingWithoutCreate() throws {
        let url = try FileStoreFixture.newFileURL()
        #expect(throws: KeyringError.serviceUnavailable(reason: .noKeyringFile(path: url.path))) {
            try EncryptedFileStore(url: url, secret: .key(FileStoreFixture.randomKey()), createIfMissing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
