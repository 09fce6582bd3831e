import Foundation
import KeyringCrypto
import KeyringTestSupport
import Testing

@testable import SwiftKeyring

/// The encrypted file unlocked once per login: its derived key in the session's kernel keyring.
@Suite("Encrypted file: unlocked in the session keyring")
struct EncryptedFileUnlockTests {
    private let cheap = FileStoreFixture.cheapKDF

    /// A passphrase file of three records; the configuration opens it with no secret at all.
    private func threeRecords(_ passphrase: String) throws -> (URL, EncryptedFileStore, KeyringConfiguration) {
        let url = try FileStoreFixture.newFileURL()
        let store = try EncryptedFileStore(url: url, secret: .passphrase(passphrase), keyDerivation: cheap)
        let keyring = try Keyring(service: "s", store: store)
        for name in ["alice", "bob", "carol"] {
            try keyring.set(try Samples.credentials(name, password: "pw-of-\(name)"), forKey: name)
        }
        return (url, store, KeyringConfiguration(store: .file, environment: [:], fileURL: url))
    }

    private func header(_ url: URL) throws -> KeyedHeader { try KeyedHeader.decode(Array(try Data(contentsOf: url))) }

    @Test("unlock keeps Argon2id's key, never the passphrase; a keyring with no secret then opens the file; lock forgets it")
    func unlockAndLock() throws {
        let passphrase = "unlock-test-\(UUID().uuidString)"
        let (url, store, configuration) = try threeRecords(passphrase)
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: configuration)
        }
        let until = try store.unlock(for: .seconds(600))
        defer { _ = try? store.lock() }
        #expect(until > Date().addingTimeInterval(590) && until < Date().addingTimeInterval(610))
        let header = try header(url)
        let entry = try #require(EncryptedFileStore.cachedKey(for: header), "no key kept for the file")
        let derived = try KeyDerivation.argon2id(
            passphrase: try SecureBytes(copying: Array(passphrase.utf8)), salt: header.salt, parameters: cheap)
        let keptIsDerived = entry.key.withBytes { kept in derived.withBytes { kept.elementsEqual($0) } }
        #expect(keptIsDerived, "the key kept is not the one Argon2id derives")
        let keptHoldsPassphrase = entry.key.withBytes { Data($0).range(of: Data(passphrase.utf8)) != nil }
        #expect(!keptHoldsPassphrase, "the passphrase is in the kernel keyring")
        #expect(try EncryptedFileStore.unlockedUntil(url: url) == until)

        let opened = try Keyring(service: "s", configuration: configuration)
        let read = try opened.password(forKey: "bob") == "pw-of-bob"
        #expect(read, "the record bob read with the kept key differs")

        #expect(try store.lock())
        #expect(EncryptedFileStore.cachedKey(for: header) == nil)
        #expect(try !EncryptedFileStore.lock(url: url))
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: configuration)
        }
    }

    @Test("A kept key that does not open the file is dropped; the passphrase opens it; no record lost or rewritten")
    func wrongKeptKey() throws {
        let passphrase = "unlock-test-\(UUID().uuidString)"
        let (url, _, configuration) = try threeRecords(passphrase)
        let before = try Data(contentsOf: url)
        let header = try header(url)
        let wrong = try SecureBytes(copying: Array(FileStoreFixture.randomKey()))
        _ = try UnlockedKeyCache(header).keep(wrong, duration: .seconds(600))
        defer { UnlockedKeyCache(header).drop() }

        var withPassphrase = configuration
        withPassphrase.fileSecret = .passphrase(passphrase)
        let keyring = try Keyring(service: "s", configuration: withPassphrase)
        #expect(EncryptedFileStore.cachedKey(for: header) == nil, "the wrong key is still kept")
        for name in ["alice", "bob", "carol"] {
            let same = try keyring.password(forKey: name) == "pw-of-\(name)"
            #expect(same, "the record \(name) differs after the wrong key")
        }
        #expect(try Data(contentsOf: url) == before, "the file was rewritten")

        _ = try UnlockedKeyCache(header).keep(wrong, duration: .seconds(600))
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: configuration)
        }
        #expect(EncryptedFileStore.cachedKey(for: header) == nil, "the wrong key is still kept")
        #expect(try Data(contentsOf: url) == before, "the file was rewritten")
    }

    @Test("changePassphrase drops the kept key: the old key opens nothing now")
    func changePassphraseDrops() throws {
        let (url, store, configuration) = try threeRecords("first-\(UUID().uuidString)")
        let old = try header(url)
        try store.unlock(for: .seconds(600))
        try store.changePassphrase(to: .passphrase("second-\(UUID().uuidString)"))
        #expect(EncryptedFileStore.cachedKey(for: old) == nil)
        #expect(try EncryptedFileStore.unlockedUntil(url: url) == nil)
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: configuration)
        }
    }

    @Test("A duration under a second or over 30 days is refused, naming it; nothing is kept", arguments: [0, 31 * 86_400])
    func badDuration(seconds: Int) throws {
        let (url, store, _) = try threeRecords("p-\(UUID().uuidString)")
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "unlock duration", reason: "must be between 1 second and 30 days, not \(Duration.seconds(seconds))")
        ) {
            try store.unlock(for: .seconds(seconds))
        }
        #expect(try EncryptedFileStore.unlockedUntil(url: url) == nil)
    }

    @Test("A file opened with a raw key has nothing to unlock")
    func rawKey() throws {
        let store = try FileStoreFixture.store()
        let error = #expect(throws: KeyringError.self) { try store.unlock() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error.map { "\($0)" }?.contains("opens with a raw key, which needs no key derivation") == true)
    }

    @Test("Another file, even with the same passphrase, never gets the kept key")
    func identityIsTheFile() throws {
        let passphrase = "same-\(UUID().uuidString)"
        let (_, first, _) = try threeRecords(passphrase)
        let (_, _, other) = try threeRecords(passphrase)
        try first.unlock(for: .seconds(600))
        defer { _ = try? first.lock() }
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: other)
        }
    }
}
