import Foundation
import Keyring
import KeyringTestSupport
import Testing

/// Keys and usernames hold any text but NUL, byte for byte, on every store: what Python's
/// keyring, secret-tool and the Secret Service store, a program moving its records here can store.
extension StoreConformanceTests {
    /// Names drawn from whitespace, punctuation and non-Latin scripts, each of which must come back unchanged.
    static let exactNames: [String] = [
        "tab\there", "new\nline", "carriage\rreturn", "vertical\u{0B}tab", "form\u{0C}feed", " \t\n\r\u{0B}\u{0C} ",
        "escape \u{1B}[2J and DEL \u{7F} and C1 \u{85}\u{9B}",
        "punctuation !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        "ключ Ελληνικά 中文 日本語 한국어 עברית العربية हिन्दी",
        "e\u{301} decomposed", "\u{E9} precomposed",
        "🔑👩‍👩‍👧‍👦🇫🇷",
        "\u{FEFF}leading BOM", "trailing space ",
    ]

    /// The names `store` keeps: KeePassXC 2.7.4 drops a leading U+FEFF from every attribute
    /// it stores (the daemon's own change, in the README), so that name is left out there.
    static func exactNames(on store: TestStore) -> [String] {
        guard store == .secretService, PrivateSecretService.daemon == .keepassxc else { return exactNames }
        return exactNames.filter { !$0.hasPrefix("\u{FEFF}") }
    }

    @Test("Keys and usernames of any text but NUL round-trip byte for byte", arguments: TestStore.underTest)
    func exactNamesRoundTrip(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let names = Self.exactNames(on: store)
        for (index, name) in names.enumerated() {
            try keyring.set(try Samples.credentials(name, password: "p\(index)"), forKey: name)
            try keyring.setSecret(Data("s\(index)".utf8), forKey: name)
        }
        for (index, name) in names.enumerated() {
            let read = try #require(try keyring.credentials(forKey: name), "key \(index) was not found")
            #expect(Array(read.username.utf8) == Array(name.utf8), "username \(index) changed")
            #expect(read.password == "p\(index)", "key \(index) read another record")
            #expect(try keyring.secret(forKey: name) == Data("s\(index)".utf8), "secret key \(index) read another secret")
        }
        // Compared as bytes: Swift's == takes "e\u{301}" and "\u{E9}" for one string, a store must not.
        let listed = try keyring.list()
        #expect(Set(listed.map { Array($0.key.utf8) }) == Set(names.map { Array($0.utf8) }))
        #expect(Set(listed.map { Array($0.username.utf8) }) == Set(names.map { Array($0.utf8) }))
        #expect(Set(try keyring.secretKeys().map { Array($0.utf8) }) == Set(names.map { Array($0.utf8) }))
        for name in names {
            #expect(try keyring.remove(forKey: name))
        }
        #expect(try keyring.list().isEmpty)
    }

    @Test("A NUL in a key or username is refused naming the field, and nothing stored changes", arguments: TestStore.underTest)
    func nulRefused(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let kept = try Samples.credentials("alice", password: "kept")
        try keyring.set(kept, forKey: "work")
        let reason = "must not contain a NUL character"
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: reason)) {
            try keyring.set(try Samples.credentials("bob"), forKey: "work\u{0}x")
        }
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: reason)) {
            try keyring.setSecret(Data("s".utf8), forKey: "\u{0}")
        }
        var withNUL = try Samples.credentials("bob", password: "new")
        withNUL.username = "bob\u{0}root"  // a var set after validation: Keyring must check again
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: reason)) {
            try keyring.set(withNUL, forKey: "work")
        }
        #expect(try keyring.credentials(forKey: "work") == kept)
        #expect(try keyring.list().map(\.key) == ["work"])
        #expect(try keyring.secretKeys().isEmpty)
    }
}
