import Foundation
import KeyringCrypto
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// libsecret's file unlocked once per login: its PBKDF2 key in the session's kernel keyring.
@Suite("libsecret file: unlocked in the session keyring")
struct LibsecretFileUnlockTests {
    /// A file of two records written with `password`, and a configuration that opens it with the passphrase sources.
    private func twoRecords(_ password: String) throws -> (URL, LibsecretFileStore, KeyringConfiguration) {
        let url = try LibsecretFileFixture.newFileURL()
        let store = try LibsecretFileFixture.cheapStore(url: url, password: password)
        let keyring = try Keyring(service: "s", store: store)
        for name in ["alice", "bob"] {
            try keyring.set(try Samples.credentials(name, password: "pw-of-\(name)"), forKey: name)
        }
        var configuration = KeyringConfiguration(store: .libsecretFile, environment: [:])
        configuration.libsecretFileURL = url
        configuration.libsecretKey = .passphrase
        return (url, store, configuration)
    }

    private func plainFile(_ url: URL) throws -> LibsecretKeyringFile {
        try LibsecretKeyringFile.decode(Array(try Data(contentsOf: url)))
    }

    @Test("A keyring opened with the kept key, whose file another writer makes again, asks the usual sources then")
    func fileMadeAgainMeanwhile() throws {
        let password = "unlock-test-\(UUID().uuidString)"
        let (url, store, configuration) = try twoRecords(password)
        let until = try store.unlock(for: .seconds(600))
        let cache = try plainFile(url).unlockedKeyCache
        defer { cache.drop() }
        #expect(try LibsecretFileStore.unlockedUntil(url: url) == until)
        let opened = try Keyring(service: "s", configuration: configuration)
        let read = try opened.password(forKey: "bob") == "pw-of-bob"
        #expect(read, "the record bob read with the kept key differs")

        // Another writer makes the file again: a new salt, which the kept key was not made for.
        try FileManager.default.removeItem(at: url)
        let remade = try Keyring(service: "s", store: try LibsecretFileFixture.cheapStore(url: url, password: password))
        try remade.set(try Samples.credentials("carol", password: "pw-of-carol"), forKey: "carol")
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try opened.password(forKey: "carol")
        }

        var withPassphrase = configuration
        withPassphrase.fileSecret = .passphrase(password)
        let again = try Keyring(service: "s", configuration: withPassphrase)
        let carol = try again.password(forKey: "carol") == "pw-of-carol"
        #expect(carol, "the record carol of the file made again differs")
        #expect(try store.lock() == false, "the new file had a key kept")
        #expect(try LibsecretFileStore.lock(url: url) == false)
    }

    @Test("A store keyed by the Secret portal's secret has nothing to unlock; a file with no item keeps no key")
    func refusals() throws {
        let url = try LibsecretFileFixture.newFileURL()
        let portal = try LibsecretFileStore(
            url: url, password: try SecureBytes(copying: Array(repeating: 7, count: 64)), keyedByPortal: true)
        #expect(throws: KeyringError.self) { try portal.unlock() }
        let empty = try LibsecretFileFixture.cheapStore(url: try LibsecretFileFixture.newFileURL(), password: "p")
        let keyring = try Keyring(service: "s", store: empty)
        try keyring.set(try Samples.credentials("a", password: "x"), forKey: "a")
        try keyring.remove(forKey: "a")
        #expect(throws: KeyringError.self) { try empty.unlock() }
        #expect(try LibsecretFileStore.unlockedUntil(url: empty.url) == nil)
    }
}
