import Foundation
import KeyringCrypto
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// `swift-keyring unlock` and `lock` on libsecret's keyring file keyed by a passphrase: the
/// file's PBKDF2 key, never the passphrase, kept in the session keyring by the file's salt.
@Suite("CLI unlock of libsecret's file")
struct CLILibsecretFileUnlockTests {
    /// libsecret's file at `url` in a sandbox, keyed by the encrypted file's sources; no passphrase set.
    private func shellEnvironment(_ sandbox: Sandbox, _ url: URL) -> [String: String] {
        var environment = sandbox.passphraseEnvironment([
            "SWIFT_KEYRING_BACKEND": "libsecret-file", "SWIFT_KEYRING_LIBSECRET_FILE": url.path,
            "SWIFT_KEYRING_LIBSECRET_KEY": "passphrase",
        ])
        environment["SWIFT_KEYRING_PASSPHRASE"] = nil
        return environment
    }

    /// A sandbox whose libsecret file holds `gh` and `gl` (written with the sandbox's passphrase),
    /// the file's URL, and the environment of a later shell: no passphrase anywhere.
    private func fileWithRecords(_ password: String) throws -> (Sandbox, URL, [String: String]) {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        let environment = shellEnvironment(sandbox, url)
        let withPassphrase = environment.merging(["SWIFT_KEYRING_PASSPHRASE": sandbox.passphrase]) { $1 }
        for (key, secret) in [("gh", password), ("gl", password + "-gl")] {
            let set = try CLI.run(
                ["set", key, "--username", "alice", "--url", "https://\(key).example"], stdin: secret,
                environment: withPassphrase)
            #expect(set.status == 0, "set \(key) failed: \(set.stderr)")
        }
        return (sandbox, url, environment)
    }

    /// The file at `url` as libsecret keeps it (salt and iteration count in plain).
    private func plainFile(_ url: URL) throws -> LibsecretKeyringFile {
        try LibsecretKeyringFile.decode(Array(try Data(contentsOf: url)))
    }

    @Test("unlock once: get needs no passphrase; the kernel holds PBKDF2's key, not the passphrase; lock forgets it")
    func unlockOnce() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, url, environment) = try fileWithRecords(password)
        let locked = try CLI.run(["get", "gh"], environment: environment)
        #expect(locked.status == 77 && locked.stderr.contains("needs a passphrase"), "\(locked.allOutput)")
        let wrong = try CLI.run(["unlock"], stdin: "not-the-passphrase\n", environment: environment)
        #expect(wrong.status == 77, "a wrong passphrase unlocked: \(wrong.allOutput)")
        #expect(try plainFile(url).unlockedKeyCache.find() == nil, "a wrong passphrase's key was kept")

        let unlock = try CLI.run(["unlock", "--for", "10m"], stdin: sandbox.passphrase + "\n", environment: environment)
        let file = try plainFile(url)
        let cache = file.unlockedKeyCache
        defer { cache.drop() }
        #expect(unlock.status == 0, "unlock failed: \(unlock.stderr)")
        #expect(unlock.stdout.hasPrefix("Unlocked \(url.path) for this login session until "), "\(unlock.stdout)")
        #expect(cache.name.hasPrefix("swift-keyring:libsecret-file:"))

        let get = try CLI.run(["get", "gh"], environment: environment)
        #expect(get.status == 0, "get after unlock failed: \(get.stderr)")
        #expect(get.stdout == password + "\n", "the record gh read after unlock differs")
        let doctor = try CLI.run(["doctor"], environment: environment)
        #expect(
            doctor.stdout.contains("its unlocked key: in use, kept in the session keyring until "), "\(doctor.stdout)")
        let json = try CLI.run(["doctor", "--json"], environment: environment)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let libsecret = report?["libsecretFile"] as? [String: Any]
        #expect(libsecret?["unlockedUntil"] is String, "doctor --json has no unlockedUntil for libsecret's file")

        // Possessor-only, and 24 bytes: the 16-byte PBKDF2 key and its expiry.
        let line = try #require(try SessionKeys.procLine(cache.name), "the key is not in the session keyring")
        #expect(line.contains(" 3f000000 ") && line.hasSuffix(": 24"), "unexpected key: \(line)")
        let kept = try #require(cache.find(), "the kept key cannot be read")
        let derived = try PBKDF2.sha256(
            password: try SecureBytes(copying: Array(sandbox.passphrase.utf8)), salt: file.salt,
            iterations: Int(file.iterations), length: LibsecretItemSealing.keyLength)
        let keptIsDerived = kept.key.withBytes { key in derived.withBytes { key.elementsEqual($0) } }
        #expect(keptIsDerived, "the key kept is not PBKDF2's key for the file")
        let keptHoldsPassphrase = kept.key.withBytes { key in
            Data(key).range(of: Data(sandbox.passphrase.utf8.prefix(key.count))) != nil
        }
        #expect(!keptHoldsPassphrase, "the passphrase is in the kernel keyring")

        let lock = try CLI.run(["lock"], environment: environment)
        #expect(lock.status == 0 && lock.stdout.hasPrefix("Locked "), "lock failed: \(lock.allOutput)")
        // Invalidated keys stay listed in /proc/keys until the kernel's collector runs; what no
        // search finds and no read reads is gone for every process.
        #expect(cache.find() == nil, "the key is still found after lock")
        let after = try CLI.run(["get", "gh"], environment: environment)
        #expect(after.status == 77 && after.stderr.contains("needs a passphrase"), "\(after.allOutput)")
        #expect(try CLI.run(["doctor"], environment: environment).stdout.contains("its unlocked key: none"))
        let again = try CLI.run(["lock"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("was not unlocked"), "\(again.allOutput)")
        for output in [unlock, get, doctor, json, lock, after].map(\.allOutput) {
            #expect(!output.contains(sandbox.passphrase), "the passphrase was printed")
        }
    }

    @Test("The git helper opens the unlocked file too, and what it stores is sealed under the file's key")
    func gitHelper() throws {
        let (sandbox, url, environment) = try fileWithRecords("pw-\(UUID().uuidString)")
        let unlock = try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment)
        defer { _ = try? CLI.run(["lock"], environment: environment) }
        #expect(unlock.status == 0, "unlock failed: \(unlock.stderr)")
        try GitHelperRoundTrip.expectStoresAndFills(environment, when: "after unlock")
        // The passphrase alone, with no key kept, reads what the helper wrote with the kept key.
        _ = try CLI.run(["lock"], environment: environment)
        let withPassphrase = environment.merging(["SWIFT_KEYRING_PASSPHRASE": sandbox.passphrase]) { $1 }
        let again = try GitHelperRoundTrip.fill(withPassphrase)
        #expect(again.status == 0 && again.text.contains("password=git-pw\n"), "the passphrase does not open the helper's record")
        #expect(try plainFile(url).items.count == 3)
    }

    @Test("A moved file still opens with the kept key; another libsecret file (another salt) does not")
    func movedAndOther() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, url, environment) = try fileWithRecords(password)
        #expect(try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment).status == 0)
        let cache = try plainFile(url).unlockedKeyCache
        defer { cache.drop() }

        let moved = sandbox.folder.appendingPathComponent("moved/elsewhere.keyring")
        try FileManager.default.createDirectory(
            at: moved.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.moveItem(at: url, to: moved)
        let get = try CLI.run(["get", "gl", "--file", moved.path], environment: environment)
        #expect(get.status == 0, "the moved file did not open: \(get.stderr)")
        #expect(get.stdout == password + "-gl\n", "the record gl of the moved file differs")

        // The same passphrase and records in a new file: a new salt, so another name; nothing opens it.
        let (other, otherURL, _) = try fileWithRecordsSharing(sandbox.passphrase, password)
        defer { withExtendedLifetime(other) {} }
        let otherGet = try CLI.run(["get", "gh", "--file", otherURL.path], environment: environment)
        #expect(otherGet.status == 77 && otherGet.stderr.contains("needs a passphrase"), "\(otherGet.allOutput)")
        #expect(try plainFile(otherURL).unlockedKeyCache.name != cache.name)
        #expect(cache.find() != nil, "the moved file's key was dropped")
    }

    /// A second sandbox whose file holds `gh`, written with `passphrase`.
    private func fileWithRecordsSharing(_ passphrase: String, _ password: String) throws -> (Sandbox, URL, [String: String]) {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        let environment = shellEnvironment(sandbox, url)
        let set = try CLI.run(
            ["set", "gh", "--username", "alice", "--url", "https://gh.example"], stdin: password,
            environment: environment.merging(["SWIFT_KEYRING_PASSPHRASE": passphrase]) { $1 })
        #expect(set.status == 0, "set failed: \(set.stderr)")
        return (sandbox, url, environment)
    }

    @Test("A kept key that opens none of the items is dropped; the records are intact and the file unchanged")
    func wrongKeptKey() throws {
        let password = "record-pw-\(UUID().uuidString)"
        let (sandbox, url, environment) = try fileWithRecords(password)
        let before = try Data(contentsOf: url)
        let cache = try plainFile(url).unlockedKeyCache
        defer { cache.drop() }
        let random = try SecureBytes(copying: Array(FileStoreFixture.randomKey().prefix(LibsecretItemSealing.keyLength)))
        _ = try cache.keep(random, duration: .seconds(600))

        // No passphrase set: the planted key is dropped and the usual sources' error is the answer.
        let get = try CLI.run(["get", "gh"], environment: environment)
        #expect(get.status == 77 && get.stderr.contains("needs a passphrase"), "\(get.allOutput)")
        #expect(cache.find() == nil, "the wrong key is still kept")
        // A write with no passphrase writes nothing with a wrong key either.
        _ = try cache.keep(random, duration: .seconds(600))
        let set = try CLI.run(
            ["set", "new", "--username", "bob", "--url", "https://new.example"], stdin: "x", environment: environment)
        #expect(set.status == 77, "a write with the wrong key did not fail: \(set.allOutput)")
        #expect(cache.find() == nil, "the wrong key is still kept")
        #expect(try Data(contentsOf: url) == before, "the file was rewritten")

        // With the passphrase set, the planted key is dropped and the passphrase opens every record.
        _ = try cache.keep(random, duration: .seconds(600))
        let withPassphrase = environment.merging(["SWIFT_KEYRING_PASSPHRASE": sandbox.passphrase]) { $1 }
        for (key, secret) in [("gh", password), ("gl", password + "-gl")] {
            let read = try CLI.run(["get", key], environment: withPassphrase)
            #expect(read.status == 0 && read.stdout == secret + "\n", "the record \(key) differs after the wrong key")
        }
        #expect(cache.find() == nil, "the wrong key is still kept")
        #expect(try Data(contentsOf: url) == before, "the file was rewritten")
    }

    @Test("A file made again (a new salt) does not open with the key kept for the old one")
    func remadeFile() throws {
        let (sandbox, url, environment) = try fileWithRecords("pw-\(UUID().uuidString)")
        #expect(try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment).status == 0)
        let old = try plainFile(url).unlockedKeyCache
        defer { old.drop() }
        try FileManager.default.removeItem(at: url)
        let remade = try CLI.run(
            ["set", "gh", "--username", "alice", "--url", "https://gh.example"], stdin: "remade",
            environment: environment.merging(["SWIFT_KEYRING_PASSPHRASE": sandbox.passphrase]) { $1 })
        #expect(remade.status == 0, "\(remade.allOutput)")
        #expect(try plainFile(url).unlockedKeyCache.name != old.name)
        let get = try CLI.run(["get", "gh"], environment: environment)
        #expect(get.status == 77 && get.stderr.contains("needs a passphrase"), "\(get.allOutput)")
    }

    @Test("Keyed by the Secret portal there is nothing to unlock; a file with no item cannot be checked, so none is kept")
    func refusals() throws {
        let (sandbox, url, environment) = try fileWithRecords("pw-\(UUID().uuidString)")
        let portal = try CLI.run(
            ["unlock"], stdin: sandbox.passphrase,
            environment: environment.merging(["SWIFT_KEYRING_LIBSECRET_KEY": "portal"]) { $1 })
        #expect(portal.status == 64 && portal.stderr.contains("nothing to unlock"), "\(portal.allOutput)")

        let withPassphrase = environment.merging(["SWIFT_KEYRING_PASSPHRASE": sandbox.passphrase]) { $1 }
        for key in ["gh", "gl"] {
            #expect(try CLI.run(["remove", key], environment: withPassphrase).status == 0)
        }
        let empty = try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment)
        #expect(empty.status == 64 && empty.stderr.contains("holds no item yet"), "\(empty.allOutput)")
        #expect(try plainFile(url).unlockedKeyCache.find() == nil, "a key was kept for an empty file")
    }

    @Test("A file secret-tool wrote unlocks and reads; a record written with the kept key is one secret-tool reads")
    func secretToolFile() throws {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("keyrings/default.keyring")
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stored = try LibsecretFileFixture.secretTool(
            [
                "store", "--label=x", "tag", "swift-keyring", "service", "default", "key", "typed", "kind", "credentials",
                "username", "u", "url", "https://example.com",
            ], url: url, password: sandbox.passphrase, stdin: "value from secret-tool")
        #expect(stored.status == 0, "secret-tool store failed: \(stored.stderr)")
        let environment = shellEnvironment(sandbox, url)
        let unlock = try CLI.run(["unlock"], stdin: sandbox.passphrase, environment: environment)
        let cache = try plainFile(url).unlockedKeyCache
        defer { cache.drop() }
        #expect(unlock.status == 0, "unlock failed: \(unlock.stderr)")
        let get = try CLI.run(["get", "typed"], environment: environment)
        #expect(get.status == 0 && get.stdout == "value from secret-tool\n", "\(get.stderr)")

        let set = try CLI.run(
            ["set", "ours", "--username", "v", "--url", "https://example.org"], stdin: "value from the tool",
            environment: environment)
        #expect(set.status == 0, "set with the kept key failed: \(set.stderr)")
        let lookup = try LibsecretFileFixture.secretTool(
            ["lookup", "service", "default", "key", "ours"], url: url, password: sandbox.passphrase)
        #expect(lookup.status == 0 && lookup.text == "value from the tool", "secret-tool cannot read it: \(lookup.stderr)")
    }
}
