import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Files that someone else put in the store's way: a FIFO instead of a file, a
/// header asking for a ruinous key derivation, key and passphrase files that
/// others can write or that belong to another user.
@Suite("Encrypted file: hostile files")
struct EncryptedFileHostileFilesTests {
    /// A FIFO (named pipe) in a new private folder: opening it to read waits for a writer that never comes.
    private func fifo(_ name: String) throws -> URL {
        let url = try TemporaryFolder.make().appendingPathComponent(name)
        #expect(mkfifo(url.path, 0o600) == 0)
        return url
    }

    private static let notRegular = "it is not a regular file"

    @Test("A FIFO at the keyring file's path is refused at once, not waited on")
    func fifoKeyringFile() throws {
        let url = try fifo("keyring.skr")
        let error = BoundedCall.keyringError {
            try EncryptedFileStore(url: url, secret: .key(FileStoreFixture.randomKey()))
        }
        #expect(error == .insecurePermissions(path: url.path, reason: Self.notRegular))
    }

    @Test("A FIFO at SWIFT_KEYRING_PASSPHRASE_FILE is refused at once, not waited on")
    func fifoPassphraseFile() throws {
        let url = try fifo("passphrase")
        let error = BoundedCall.keyringError {
            try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_PASSPHRASE_FILE": url.path])
        }
        #expect(error == .insecurePermissions(path: url.path, reason: Self.notRegular))
    }

    @Test("A FIFO at SWIFT_KEYRING_KEY_FILE is refused at once, not waited on")
    func fifoKeyFile() throws {
        let url = try fifo("keyring.key")
        let file = try FileStoreFixture.newFileURL()
        let error = BoundedCall.keyringError {
            let secret = try FileStoreSecret.resolve(environment: ["SWIFT_KEYRING_KEY_FILE": url.path])
            return try EncryptedFileStore(url: file, secret: secret)
        }
        #expect(error == .insecurePermissions(path: url.path, reason: Self.notRegular))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// Argon2id costs beyond the bounds of docs/FILE_FORMAT.md, each planted in a valid header.
    static let ruinousCosts: [(t: UInt32, m: UInt32, p: UInt32)] = [
        (11, 64, 1),  // one pass too many
        (1, 64, 5),  // one lane too many
        (1, 1024 * 1024 + 1, 1),  // 1 KiB over 1 GiB
        (1, 4_194_304, 1),  // overflows `1024 · m` inside libgcrypt 1.10.1 ("Invalid argument")
        (64, 4_194_300, 16),  // what the format allowed before: about 4 GiB and minutes per open
    ]

    @Test("A header asking for more than the bounds is refused as damaged, before any key is derived", arguments: ruinousCosts)
    func ruinousHeader(cost: (t: UInt32, m: UInt32, p: UInt32)) throws {
        let url = try FileStoreFixture.newFileURL()
        let store = try EncryptedFileStore(url: url, secret: .passphrase("pw"), keyDerivation: FileStoreFixture.cheapKDF)
        try Keyring(service: "s", store: store).setDefault(try Samples.credentials())
        let planted = try HeaderPatch.parameters(
            Data(contentsOf: url), iterations: cost.t, memoryKiB: cost.m, parallelism: cost.p)
        try planted.write(to: url)
        #expect(chmod(url.path, 0o600) == 0)

        // Bounded: deriving the largest of these would take minutes and gigabytes, so a regression fails here instead.
        let error = BoundedCall.keyringError(within: .seconds(60)) {
            try EncryptedFileStore(url: url, secret: .passphrase("pw"))
        }
        guard let error, error.code == .damaged, let reason = error.reason else {
            Issue.record("expected .damaged, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Argon2id parameters are out of range"))
        #expect(try Data(contentsOf: url) == planted)
        let inspected = try EncryptedFileStore.inspect(url)
        #expect(inspected.keyDerivation == nil)
        #expect(inspected.keyDerivationProblem?.contains("out of range") == true)
    }

    @Test("A store refuses to write a cost beyond the bounds")
    func ruinousCostForNewFile() throws {
        let url = try FileStoreFixture.newFileURL()
        let cost = Argon2idParameters(iterations: 11, memoryKiB: 64, parallelism: 1)
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "keyDerivation", reason: "iterations must be between 1 and 10, not 11")
        ) {
            try EncryptedFileStore(url: url, secret: .passphrase("pw"), keyDerivation: cost)
        }
    }

    @Test("doctor's inspection warns about a cost weaker than the default, and not about the default")
    func weakCost() throws {
        let weak = try FileStoreFixture.newFileURL()
        let cost = Argon2idParameters(iterations: 1, memoryKiB: 8, parallelism: 1)
        _ = try EncryptedFileStore(url: weak, secret: .passphrase("pw"), keyDerivation: cost)
        let inspected = try EncryptedFileStore.inspect(weak)
        #expect(inspected.keyDerivation == "argon2id t=1 m=8 KiB p=1")
        #expect(inspected.keyDerivationProblem?.contains("weaker than the default (argon2id t=3 m=65536 KiB p=1)") == true)

        let raw = try FileStoreFixture.store()
        #expect(try EncryptedFileStore.inspect(raw.url).keyDerivation == "raw 32-byte key")
        #expect(try EncryptedFileStore.inspect(raw.url).keyDerivationProblem == nil)
    }

    /// The two kinds of secret file, each as the store would be given it.
    enum SecretSource: String, CaseIterable, Sendable {
        case keyFile, passphraseFile

        func write(to url: URL) throws {
            let content = self == .keyFile ? FileStoreFixture.randomKey() : Data("a passphrase\n".utf8)
            try FileStoreFixture.writePrivate(content, to: url)
        }

        /// Resolves the secret from the variable naming the file, and opens a new store with it.
        func open(_ url: URL) throws {
            let variable = self == .keyFile ? "SWIFT_KEYRING_KEY_FILE" : "SWIFT_KEYRING_PASSPHRASE_FILE"
            let secret = try FileStoreSecret.resolve(environment: [variable: url.path])
            _ = try EncryptedFileStore(
                url: try FileStoreFixture.newFileURL(), secret: secret, keyDerivation: FileStoreFixture.cheapKDF)
        }
    }

    @Test(
        "A key or passphrase file its group can write or read is refused; one only its owner can read is used",
        arguments: SecretSource.allCases)
    func groupWritable(source: SecretSource) throws {
        let url = try TemporaryFolder.make().appendingPathComponent("secret")
        try source.write(to: url)
        let fix = "a key or passphrase file must be readable by its owner only; chmod 600 it"
        for (mode, access) in [(0o660, "read and write"), (0o640, "read")] {
            #expect(chmod(url.path, mode_t(mode)) == 0)
            #expect(
                throws: KeyringError.insecurePermissions(
                    path: url.path, reason: "its mode 0\(String(mode, radix: 8)) lets its group \(access) it; \(fix)")
            ) {
                try source.open(url)
            }
        }
        #expect(chmod(url.path, 0o400) == 0)
        try source.open(url)
    }

    @Test(
        "A key or passphrase file of another user is refused", MachineNeed.root.trait(), arguments: SecretSource.allCases)
    func foreignOwner(source: SecretSource) throws {
        try MachineNeed.root.require()  // only root can give a file away
        let url = try TemporaryFolder.make().appendingPathComponent("secret")
        try source.write(to: url)
        #expect(chown(url.path, 65534, 65534) == 0)
        #expect(
            throws: KeyringError.insecurePermissions(
                path: url.path, reason: "it belongs to user 65534, not to this user (0) or root")
        ) {
            try source.open(url)
        }
    }
}
