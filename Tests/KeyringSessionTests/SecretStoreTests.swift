import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("SecretStore")
struct SecretStoreTests {
    @Test("removeAll takes this account's secrets and leaves other accounts and services alone", arguments: TestStore.allCases)
    func removeAllIsScoped(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        let otherService = try Keyring(service: TestStore.uniqueService("other"), store: keyring.store)
        defer {
            _ = try? keyring.removeAll()
            _ = try? otherService.removeAll()
        }
        let mine = try SecretStore(keyring: keyring, account: "a")
        let longer = try SecretStore(keyring: keyring, account: "ab")
        let slashed = try SecretStore(keyring: keyring, account: "a/b")
        let elsewhere = try SecretStore(keyring: otherService, account: "a")
        try mine.set("1", forKey: "token")
        try mine.set("2", forKey: "b/token")
        try longer.set("3", forKey: "token")
        try slashed.set("4", forKey: "token")
        try elsewhere.set("5", forKey: "token")
        try keyring.setSecret(Data("6".utf8), forKey: "plain")

        #expect(try mine.removeAll() == 2)

        #expect(try mine.allKeys().isEmpty)
        #expect(try longer.string(forKey: "token") == "3")
        #expect(try slashed.string(forKey: "token") == "4")
        #expect(try elsewhere.string(forKey: "token") == "5")
        #expect(try keyring.secret(forKey: "plain") == Data("6".utf8))
    }

    static let neighbours: [(String, String)] = [
        ("a", "ab"), ("a", "a/b"), ("a/b", "a"), ("a%2Fb", "a/b"), ("a", "A"), ("", "x"),
    ]

    @Test("An account never sees a neighbour's keys", arguments: neighbours)
    func accountsAreScoped(first: String, second: String) throws {
        let keyring = try TestStore.memory.makeKeyring()
        guard !first.isEmpty else {
            #expect(throws: KeyringError.invalidRecord(field: "account", reason: "must not be empty")) {
                try SecretStore(keyring: keyring, account: first)
            }
            return
        }
        let one = try SecretStore(keyring: keyring, account: first)
        let two = try SecretStore(keyring: keyring, account: second)
        try one.set("one's", forKey: "k")
        try one.set("one's nested", forKey: "b/k")
        try two.set("two's", forKey: "other")
        #expect(try one.allKeys() == ["b/k", "k"])
        #expect(try two.allKeys() == ["other"])
        #expect(try two.string(forKey: "k") == nil)
        #expect(try two.string(forKey: "b/k") == nil)
    }

    @Test("Any bytes round-trip: NUL, invalid UTF-8, 1 MiB", arguments: TestStore.allCases)
    func bytesRoundTrip(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let secrets = try SecretStore(keyring: keyring, account: "alice")
        var large = Data(count: 1 << 20)
        for index in large.indices { large[index] = UInt8.random(in: 0...255) }
        let samples: [Data] = [
            Data([0]),
            Data([0, 0, 1, 0]),
            Data([0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80]),
            Data((0...255).map(UInt8.init)),
            large,
        ]
        for (index, sample) in samples.enumerated() {
            try secrets.set(sample, forKey: "sample \(index)")
        }
        for (index, sample) in samples.enumerated() {
            #expect(try secrets.data(forKey: "sample \(index)") == sample, "sample \(index) (\(sample.count) bytes) changed")
        }
        try secrets.set("päßwörd 🔑\u{0}", forKey: "text")
        #expect(try secrets.string(forKey: "text") == "päßwörd 🔑\u{0}")
    }

    @Test("Subscripts read, write and remove; errors read as nil", arguments: TestStore.allCases)
    func subscripts(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let secrets = try SecretStore(keyring: keyring, account: "alice")
        secrets["token"] = "abc"
        #expect(secrets["token"] == "abc")
        #expect(try secrets.string(forKey: "token") == "abc")
        secrets[data: "blob"] = Data([0, 0xFF])
        #expect(secrets[data: "blob"] == Data([0, 0xFF]))
        secrets["token"] = nil
        #expect(try secrets.string(forKey: "token") == nil)
        #expect(try secrets.allKeys() == ["blob"])

        // Bytes that are not text: the careful path says why, the quick path reads nil.
        #expect(throws: KeyringError.self) { try secrets.string(forKey: "blob") }
        #expect(secrets["blob"] == nil)
        // An empty key is refused: the quick path changes nothing.
        secrets[""] = "ignored"
        #expect(try secrets.allKeys() == ["blob"])
    }

    @Test("remove reports whether there was a secret; an empty key is refused", arguments: TestStore.allCases)
    func removeAndEmptyKey(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let secrets = try SecretStore(keyring: keyring, account: "alice")
        try secrets.set("x", forKey: "k")
        #expect(try secrets.remove(forKey: "k"))
        #expect(try secrets.remove(forKey: "k") == false)
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: "must not be empty")) {
            try secrets.set("x", forKey: "")
        }
    }
}
