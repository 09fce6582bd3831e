import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

/// The state file follows the keyring file's rules: a private folder of this
/// user, no symbolic link in the file's or the lock's place.
@Suite("Session state file: permissions and links")
struct SessionStateFileSecurityTests {
    /// A session on the memory store whose state folder is `folder`.
    private func session(_ folder: URL, keyring: Keyring? = nil) throws -> Session<TestProperty> {
        try Session(keyring: keyring ?? TestStore.memory.makeKeyring(), requiredProperties: [], stateDirectory: folder)
    }

    @Test("An existing state folder that others can enter is refused, and nothing is written into it")
    func openFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(chmod(folder.url.path, 0o777) == 0)
        let session = try session(folder.url)
        let refused = KeyringError.insecurePermissions(
            path: folder.url.path, reason: "its mode 0777 lets group or other users in (it must be 0700); chmod 700 it")
        #expect(throws: refused) { try session.set("draft", for: .draft) }
        #expect(throws: refused) { try session.string(for: .draft) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("An existing state folder of another user is refused", MachineNeed.root.trait())
    func foreignFolder() throws {
        try MachineNeed.root.require()  // only root can give a folder away
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(chown(folder.url.path, 65534, 65534) == 0)
        let session = try session(folder.url)
        let refused = KeyringError.insecurePermissions(
            path: folder.url.path, reason: "it belongs to user 65534, not to this user (0)")
        #expect(throws: refused) { try session.set("draft", for: .draft) }
        #expect(throws: refused) { try session.string(for: .draft) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("state.json as a symbolic link to another file is refused: the other file's userID is never reported")
    func linkedStateFile() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        defer {
            folder.remove()
            elsewhere.remove()
        }
        let planted = elsewhere.url.appending(path: "attacker.json")
        let plantedBytes = Data(#"{"format":1,"values":{"userID":"attacker"}}"#.utf8)
        try plantedBytes.write(to: planted)
        #expect(chmod(planted.path, 0o600) == 0)
        let stateFile = folder.url.appending(path: "state.json")
        try FileManager.default.createSymbolicLink(at: stateFile, withDestinationURL: planted)

        let keyring = try TestStore.memory.makeKeyring()
        try keyring.setSecret(Data("tok".utf8), forKey: "session/token")  // a logged-in token, so only the userID is missing
        let refused = KeyringError.insecurePermissions(
            path: stateFile.path, reason: "it is a symbolic link; give the real file's path")
        #expect(throws: refused) {
            _ = try Session<TestProperty>(keyring: keyring, requiredProperties: TestProperty.required, stateDirectory: folder.url)
        }
        let session = try session(folder.url, keyring: keyring)
        #expect(throws: refused) { try session.string(for: .userID) }
        #expect(throws: refused) { try session.set("mine", for: .userID) }
        #expect(try Data(contentsOf: planted) == plantedBytes)
    }

    @Test("state.lock as a planted symbolic link is not followed: nothing is made where it points")
    func linkedLockFile() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        defer {
            folder.remove()
            elsewhere.remove()
        }
        let target = elsewhere.url.appending(path: "made-by-the-session")
        let lock = folder.url.appending(path: "state.lock")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: target)

        let session = try session(folder.url)
        #expect(
            throws: KeyringError.insecurePermissions(path: lock.path, reason: "it is a symbolic link; give the real file's path")
        ) {
            try session.set("draft", for: .draft)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "state.json").path))
    }

    @Test("A state file of another mode than 0600 is refused, on reads as on writes")
    func openStateFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let session = try session(folder.url)
        try session.set("draft", for: .draft)
        let stateFile = session.stateFileURL.path
        #expect(chmod(stateFile, 0o644) == 0)
        let refused = KeyringError.insecurePermissions(
            path: stateFile, reason: "its mode 0644 lets group or other users in (it must be 0600); chmod 600 it")
        #expect(throws: refused) { try session.string(for: .draft) }
        #expect(throws: refused) { try session.set("changed", for: .draft) }
    }
}
