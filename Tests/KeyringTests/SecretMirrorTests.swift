import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// `dump` and the debugger read a value's mirror, not its `description`.
@Suite("Mirrors hide secrets")
struct SecretMirrorTests {
    static let secret = "hunter2-mirror-secret"

    static func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test("dump of credentials, a stored record and a file secret never shows the secret")
    func values() throws {
        let credentials = try Samples.credentials(password: Self.secret)
        let record = StoredRecord(
            id: RecordID(service: "s", key: "k", kind: .credentials),
            metadata: RecordMetadata(username: "alice"), secret: Array(Self.secret.utf8)
        )
        for (value, visible) in [
            (credentials, "alice"), (record, "alice"), (FileStoreSecret.passphrase(Self.secret), "passphrase"),
        ] as [(Any, String)] {
            let text = Self.dumped(value)
            #expect(!text.contains(Self.secret), "\(type(of: value)) shows its secret")
            #expect(text.contains(visible))
        }
        // Data dumps its bytes one by one: the first byte's value must not appear.
        let key = Data([0xA7] + Array(repeating: 0x00, count: 31))
        #expect(!Self.dumped(FileStoreSecret.key(key)).contains("167"))
        #expect(!Self.dumped([credentials]).contains(Self.secret))
        #expect(!Self.dumped(Optional(credentials) as Any).contains(Self.secret))
    }

    @Test("dump of a configuration shows the environment's names, never its values")
    func configuration() {
        let configuration = KeyringConfiguration(
            store: .file,
            environment: ["SWIFT_KEYRING_PASSPHRASE": Self.secret, "HOME": "/home/alice"],
            fileSecret: .passphrase(Self.secret)
        )
        let text = Self.dumped(configuration)
        #expect(!text.contains(Self.secret))
        #expect(text.contains("SWIFT_KEYRING_PASSPHRASE"))
    }

    @Test("dump of a keyring and its stores never shows a stored password")
    func stores() throws {
        let memory = MemoryStore()
        let file = try FileStoreFixture.store()
        for store in [memory, file] as [any CredentialStore] {
            let keyring = try Keyring(service: "com.example.test", store: store)
            try keyring.set(Samples.credentials(password: Self.secret), forKey: "work")
            try keyring.setSecret(Data(Self.secret.utf8), forKey: "token")
            #expect(!Self.dumped(keyring).contains(Self.secret), "\(store.identity.kind) shows a password")
            #expect(!Self.dumped(store).contains(Self.secret), "\(store.identity.kind) shows a password")
        }
    }
}
