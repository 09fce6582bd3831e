import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Choosing the file store through the configuration and the environment.
@Suite("Encrypted file: selection and location")
struct EncryptedFileSelectionTests {
    @Test("SWIFT_KEYRING_BACKEND=file gives the file store at SWIFT_KEYRING_FILE, opened with the environment's secret")
    func forcedByVariable() throws {
        let url = try FileStoreFixture.newFileURL()
        let environment = [
            "SWIFT_KEYRING_BACKEND": "file",
            "SWIFT_KEYRING_FILE": url.path,
            "SWIFT_KEYRING_KEY_FILE": try FileStoreFixture.keyFile().path,
        ]
        let keyring = try Keyring(service: "s", configuration: KeyringConfiguration(environment: environment))
        #expect(keyring.selection == StoreSelection(kind: .file, reason: "forced by SWIFT_KEYRING_BACKEND"))
        let store = try #require(keyring.store as? EncryptedFileStore)
        #expect(store.url.path == url.path)
        try keyring.setDefault(try Samples.credentials("chosen"))
        let again = try Keyring(service: "s", configuration: KeyringConfiguration(environment: environment))
        #expect(try again.defaultCredentials()?.username == "chosen")
    }

    @Test("Without SWIFT_KEYRING_FILE the file goes to $XDG_DATA_HOME/swift-keyring/keyring.skr; the configuration's secret wins")
    func xdgDefault() throws {
        let dataHome = try TemporaryFolder.make()
        let key = FileStoreFixture.randomKey()
        let configuration = KeyringConfiguration(
            store: .file,
            environment: ["XDG_DATA_HOME": dataHome.path, "SWIFT_KEYRING_PASSPHRASE": "not this one"],
            fileSecret: .key(key)
        )
        let keyring = try Keyring(service: "s", configuration: configuration)
        #expect(keyring.selection == StoreSelection(kind: .file, reason: "asked for by the caller"))
        try keyring.setDefault(try Samples.credentials())
        let expected = dataHome.appendingPathComponent("swift-keyring/keyring.skr")
        #expect(FileManager.default.fileExists(atPath: expected.path))
        #expect(try FileStoreFixture.permissions(expected.deletingLastPathComponent()) == 0o700)
        #expect(try EncryptedFileStore(url: expected, secret: .key(key)).summaries(service: "s", kind: nil).count == 1)
    }

    @Test("The file store without any secret says which sources it read")
    func noSecret() throws {
        let configuration = KeyringConfiguration(
            environment: ["SWIFT_KEYRING_BACKEND": "file", "SWIFT_KEYRING_FILE": try FileStoreFixture.newFileURL().path]
        )
        #expect(throws: KeyringError.passphraseRequired(sources: FileStoreSecret.sources)) {
            try Keyring(service: "s", configuration: configuration)
        }
    }

    @Test(
        "The default location",
        arguments: [
            (["SWIFT_KEYRING_FILE": "/srv/app/keys.skr", "XDG_DATA_HOME": "/data", "HOME": "/home/a"], "/srv/app/keys.skr"),
            (["XDG_DATA_HOME": "/data", "HOME": "/home/a"], "/data/swift-keyring/keyring.skr"),
            (["XDG_DATA_HOME": "relative/data", "HOME": "/home/a"], "/home/a/.local/share/swift-keyring/keyring.skr"),
            (["SWIFT_KEYRING_FILE": "", "HOME": "/home/a"], "/home/a/.local/share/swift-keyring/keyring.skr"),
        ])
    func defaultLocation(environment: [String: String], path: String) {
        #expect(EncryptedFileStore.defaultURL(environment: environment).path == path)
        #expect(KeyringConfiguration(environment: environment).fileURL.path == path)
    }

    @Test("The libgcrypt version is reported")
    func libgcryptVersion() {
        #expect(EncryptedFileStore.libgcryptVersion.hasPrefix("1."))
    }
}
