import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Passphrases, keys, and where they come from.
@Suite("Encrypted file: passphrases and keys")
struct EncryptedFileSecretTests {
    private let cheap = FileStoreFixture.cheapKDF

    private func store(_ url: URL, _ secret: FileStoreSecret, create: Bool = true) throws -> EncryptedFileStore {
        try EncryptedFileStore(url: url, secret: secret, createIfMissing: create, keyDerivation: cheap)
    }

    @Test("The default Argon2id cost: the right passphrase opens the file, a wrong one is told apart")
    func defaultCost() throws {
        let url = try FileStoreFixture.newFileURL()
        let first = try EncryptedFileStore(url: url, secret: .passphrase("correct horse"))
        try Keyring(service: "s", store: first).setDefault(try Samples.credentials("alice"))
        #expect(try first.status().keyDerivation == "argon2id t=3 m=65536 KiB p=1")
        let again = try Keyring(service: "s", store: EncryptedFileStore(url: url, secret: .passphrase("correct horse")))
        #expect(try again.defaultCredentials()?.username == "alice")
        #expect(throws: KeyringError.wrongPassphrase) {
            try EncryptedFileStore(url: url, secret: .passphrase("correct horse!"))
        }
    }

    @Test(
        "A wrong passphrase or key gives .wrongPassphrase and leaves the file as it was",
        arguments: [
            (FileStoreSecret.passphrase("right"), FileStoreSecret.passphrase("wrong")),
            (.passphrase("right"), .passphrase("Right")),
            (.key(Data(repeating: 1, count: 32)), .key(Data(repeating: 2, count: 32))),
            (.passphrase("right"), .key(Data(repeating: 1, count: 32))),
            (.key(Data(repeating: 1, count: 32)), .passphrase("right")),
        ])
    func wrongSecret(right: FileStoreSecret, wrong: FileStoreSecret) throws {
        let url = try FileStoreFixture.newFileURL()
        try Keyring(service: "s", store: store(url, right)).setDefault(try Samples.credentials())
        let before = try Data(contentsOf: url)
        #expect(throws: KeyringError.wrongPassphrase) { try store(url, wrong) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try Keyring(service: "s", store: store(url, right)).defaultCredentials() != nil)
    }

    @Test("The same passphrase in another Unicode normalisation opens the file")
    func normalisation() throws {
        let url = try FileStoreFixture.newFileURL()
        try Keyring(service: "s", store: store(url, .passphrase("caf\u{E9}"))).setDefault(try Samples.credentials())
        #expect(try Keyring(service: "s", store: store(url, .passphrase("cafe\u{301}"))).defaultCredentials() != nil)
    }

    /// One secret source alone in an environment, and how to name the same secret explicitly.
    enum Source: String, CaseIterable, Sendable {
        case passphraseVariable, passphraseFile, credentialsDirectory, keyFile

        func environment() throws -> (environment: [String: String], same: FileStoreSecret) {
            switch self {
            case .passphraseVariable:
                return (["SWIFT_KEYRING_PASSPHRASE": "from the variable"], .passphrase("from the variable"))
            case .passphraseFile:
                let url = try TemporaryFolder.make().appendingPathComponent("passphrase")
                try FileStoreFixture.writePrivate(Data("from a file\n".utf8), to: url)
                return (["SWIFT_KEYRING_PASSPHRASE_FILE": url.path], .passphrase("from a file"))
            case .credentialsDirectory:
                let folder = try TemporaryFolder.make()
                try FileStoreFixture.writePrivate(
                    Data("from systemd".utf8), to: folder.appendingPathComponent("swift-keyring.passphrase"))
                return (["CREDENTIALS_DIRECTORY": folder.path], .passphrase("from systemd"))
            case .keyFile:
                let key = FileStoreFixture.randomKey()
                return (["SWIFT_KEYRING_KEY_FILE": try FileStoreFixture.keyFile(key).path], .key(key))
            }
        }
    }

    @Test("Each source of the secret works on its own", arguments: Source.allCases)
    func eachSource(source: Source) throws {
        let (environment, same) = try source.environment()
        let url = try FileStoreFixture.newFileURL()
        let resolved = try FileStoreSecret.resolve(environment: environment)
        try Keyring(service: "s", store: store(url, resolved)).setDefault(try Samples.credentials("from \(source)"))
        let reopened = try Keyring(service: "s", store: store(url, same, create: false))
        #expect(try reopened.defaultCredentials()?.username == "from \(source)")
    }

    @Test("The sources are taken in order: explicit, variable, file, systemd credential, key file")
    func precedence() throws {
        var environment: [String: String] = [:]
        for source in Source.allCases {
            environment.merge(try source.environment().environment) { old, _ in old }
        }
        #expect(
            try FileStoreSecret.resolve(explicit: .passphrase("explicit"), environment: environment) == .passphrase("explicit"))
        #expect(try FileStoreSecret.resolve(environment: environment) == .passphrase("from the variable"))
        environment["SWIFT_KEYRING_PASSPHRASE"] = ""
        // A passphrase file is named, not read into a String: the store reads it into secure memory.
        let passphraseFile = URL(fileURLWithPath: environment["SWIFT_KEYRING_PASSPHRASE_FILE"]!)
        #expect(try FileStoreSecret.resolve(environment: environment) == .passphraseFile(passphraseFile))
        environment["SWIFT_KEYRING_PASSPHRASE_FILE"] = nil
        let credential = URL(fileURLWithPath: environment["CREDENTIALS_DIRECTORY"]!).appendingPathComponent(
            "swift-keyring.passphrase")
        #expect(try FileStoreSecret.resolve(environment: environment) == .passphraseFile(credential))
        environment["CREDENTIALS_DIRECTORY"] = try TemporaryFolder.make().path  // holds no credential
        #expect(
            try FileStoreSecret.resolve(environment: environment)
                == .keyFile(URL(fileURLWithPath: environment["SWIFT_KEYRING_KEY_FILE"]!)))
    }

    @Test("With no source, the error names every one")
    func noSource() throws {
        let error = #expect(throws: KeyringError.self) { try FileStoreSecret.resolve(environment: ["HOME": "/nonexistent"]) }
        guard let error, error.code == .passphraseRequired, let sources = error.sources else {
            Issue.record("expected .passphraseRequired, got \(String(describing: error))")
            return
        }
        let text = sources.joined(separator: " ")
        for name in [
            "SWIFT_KEYRING_PASSPHRASE", "SWIFT_KEYRING_PASSPHRASE_FILE", "CREDENTIALS_DIRECTORY", "swift-keyring.passphrase",
            "SWIFT_KEYRING_KEY_FILE", "explicit",
        ] {
            #expect(text.contains(name), "\(name) is not named")
        }
    }

    @Test("Unusable secrets are refused before anything is written")
    func unusableSecrets() throws {
        let folder = try TemporaryFolder.make()
        let url = folder.appendingPathComponent("keyring.skr")
        #expect(throws: KeyringError.invalidConfiguration(setting: "passphrase", reason: "must not be empty")) {
            try store(url, .passphrase(""))
        }
        #expect(throws: KeyringError.invalidConfiguration(setting: "key", reason: "the key must hold exactly 32 bytes, not 31")) {
            try store(url, .key(Data(repeating: 7, count: 31)))
        }
        let shortKey = try FileStoreFixture.keyFile(Data(repeating: 7, count: 33))
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "key file", reason: "\(shortKey.path) must hold exactly 32 bytes, not 33")
        ) {
            try store(url, .keyFile(shortKey))
        }
        let openKey = try FileStoreFixture.keyFile()
        #expect(chmod(openKey.path, 0o644) == 0)
        #expect(
            throws: KeyringError.insecurePermissions(
                path: openKey.path,
                reason:
                    "its mode 0644 lets other users read it; a key or passphrase file must be readable by its owner only; chmod 600 it"
            )
        ) {
            try store(url, .keyFile(openKey))
        }
        let empty = folder.appendingPathComponent("empty")
        try FileStoreFixture.writePrivate(Data("\n".utf8), to: empty)
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_PASSPHRASE_FILE", reason: "the file \(empty.path) is empty")
        ) {
            try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_PASSPHRASE_FILE": empty.path])
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(
        "Changing the passphrase keeps every record; the old passphrase no longer opens the file",
        arguments: [
            FileStoreSecret.passphrase("the new one"), .key(Data(repeating: 9, count: 32)),
        ])
    func changePassphrase(to newSecret: FileStoreSecret) throws {
        let url = try FileStoreFixture.newFileURL()
        let old = FileStoreSecret.passphrase("the old one")
        let first = try store(url, old)
        let otherHolder = try store(url, old)
        let keyring = try Keyring(service: "s", store: first)
        for index in 0..<20 {
            try keyring.set(try Samples.credentials("user\(index)", password: "password \(index)"), forKey: "k\(index)")
        }
        try keyring.setSecret(Data([0, 1, 2, 255]), forKey: "blob")
        try first.changePassphrase(to: newSecret)

        let reopened = try Keyring(service: "s", store: store(url, newSecret, create: false))
        for index in 0..<20 {
            #expect(try reopened.credentials(forKey: "k\(index)")?.password == "password \(index)")
        }
        #expect(try reopened.secret(forKey: "blob") == Data([0, 1, 2, 255]))
        #expect(try keyring.credentials(forKey: "k3")?.username == "user3", "the changing store keeps working")
        #expect(throws: KeyringError.wrongPassphrase) { try store(url, old) }
        #expect(throws: KeyringError.wrongPassphrase) { try otherHolder.summaries(service: "s", kind: nil) }
    }
}
