import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// What the Secret Service answers is checked before a read trusts it: among
/// duplicates the newest item wins, as writes keep it, and a secret larger than any
/// write stores is refused. Items are planted with `secret-tool`, as another program
/// would leave them, in the private gnome-keyring of `Scripts/with-secret-service.sh`,
/// whose item paths are numbered in order of creation.
@Suite("Secret Service reads check what the daemon answers")
struct SecretServiceReadChecksTests {
    private static func plant(_ keyring: Keyring, key: String, username: String, secret: Data) throws {
        let planted = try PrivateSecretService.secretTool(
            [
                "store", "--label=planted", "tag", "swift-keyring", "service", keyring.service, "key", key, "kind",
                "credentials", "username", username, "url", "https://example.com", "sync", "false",
                "background-access", "false",
            ],
            input: secret)
        try #require(planted.status == 0, "secret-tool store failed: \(planted.standardError)")
    }

    @Test("Of two items of one record, reads return the newer, and the next write keeps it alone")
    func newestDuplicateWins() throws {
        let keyring = try Keyring(service: TestStore.uniqueService("duplicates"), store: PrivateSecretService.makeStore())
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials("older", password: "password-older"), forKey: "work")
        // Another program adds a second item of the same record, after ours.
        try Self.plant(keyring, key: "work", username: "newer", secret: Data("password-newer".utf8))
        let scope = ["tag": "swift-keyring", "service": keyring.service, "key": "work", "kind": "credentials"]
        #expect(try PrivateSecretService.itemCount(scope) == 2)

        #expect(try keyring.password(forKey: "work") == "password-newer")
        #expect(try keyring.credentials(forKey: "work")?.username == "newer")
        // A fresh store (nothing remembered) reads the same.
        let fresh = try Keyring(service: keyring.service, store: PrivateSecretService.makeStore())
        #expect(try fresh.password(forKey: "work") == "password-newer")
        // So does a record chosen among the service's (git's `get` without a username), read without a lookup.
        #expect(try fresh.chosenPassword { $0 }?.password == "password-newer")

        // A write of the same account's password changes the item reads chose, and removes the other.
        let changed = try Samples.credentials("newer", password: "password-changed", url: URL(string: "https://example.com")!)
        try keyring.set(changed, forKey: "work")
        #expect(try PrivateSecretService.itemCount(scope) == 1)
        #expect(try fresh.credentials(forKey: "work") == changed)
    }

    @Test("A stored password longer than any write stores is refused, naming the field; the record stays")
    func oversizedPasswordRefused() throws {
        let keyring = try Keyring(service: TestStore.uniqueService("oversized"), store: PrivateSecretService.makeStore())
        defer { _ = try? keyring.removeAll() }
        // secret-tool stores at most 8 KiB; the store itself writes what it is given, as another
        // program could (Keyring's validation, which refuses this, is not in the way).
        let store = try PrivateSecretService.makeStore()
        try store.save(
            StoredRecord(
                id: RecordID(service: keyring.service, key: "big", kind: .credentials),
                metadata: RecordMetadata(username: "alice", url: "https://example.com"),
                secret: [UInt8](repeating: 0x61, count: (1 << 20) + 1)))
        for read in [{ _ = try keyring.password(forKey: "big") }, { _ = try keyring.credentials(forKey: "big") }] {
            #expect {
                try read()
            } throws: { error in
                guard let error = error as? KeyringError, error.code == .invalidRecord, let field = error.field,
                    let reason = error.reason
                else { return false }
                return field == "password" && reason.contains("1 MiB")
            }
        }
        // Refusing to read it changes nothing: the item is still there, and listed.
        #expect(try keyring.list().map(\.key) == ["big"])
    }
}
