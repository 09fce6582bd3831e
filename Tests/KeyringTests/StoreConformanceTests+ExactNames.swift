import Foundation
import KeyringTestKit
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Keys and usernames hold any text but NUL, byte for byte, on every store: what Python's
/// keyring, secret-tool and the Secret Service store, a program moving its records here can store
/// (the kit's `exactNames` check); NUL is refused by Keyring before any store sees it.
extension StoreConformanceTests {
    /// The names `store` keeps: KeePassXC 2.7.4 and KWallet 5.103 drop a leading U+FEFF from
    /// every attribute they store (the daemons' own change, in docs/ARCHITECTURE.md), so that name is
    /// left out there; `leadingBOMRefused` checks what the store does with it instead.
    static func exactNames(on store: TestStore) -> [String] {
        guard store == .secretService, Self.dropsLeadingBOM else {
            return CredentialStoreConformance.exactNames
        }
        return CredentialStoreConformance.exactNames.filter { !$0.hasPrefix("\u{FEFF}") }
    }

    /// Whether this run's Secret Service drops a leading U+FEFF from attributes (Qt 5's
    /// `QString::fromUtf8` does, in both daemons).
    static var dropsLeadingBOM: Bool { PrivateSecretService.daemon != .gnomeKeyring }

    @Test(
        "Where the daemon drops a leading U+FEFF, such a key or username is refused naming the field, and nothing stored changes",
        .enabled(if: dropsLeadingBOM, "gnome-keyring keeps it: the kit's exact-names check stores it there"))
    func leadingBOMRefused() throws {
        let keyring = try TestStore.secretService.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let kept = try Samples.credentials("alice", password: "kept")
        try keyring.set(kept, forKey: "work")
        let error = #expect(throws: KeyringError.self) {
            try keyring.set(try Samples.credentials("bob", password: "new"), forKey: "\u{FEFF}work")
        }
        #expect(error?.code == .invalidRecord && error?.field == "key", "\(String(describing: error))")
        let username = #expect(throws: KeyringError.self) {
            try keyring.set(try Samples.credentials("\u{FEFF}bob", password: "new"), forKey: "other")
        }
        #expect(username?.code == .invalidRecord && username?.field == "username", "\(String(describing: username))")
        #expect(try keyring.credentials(forKey: "work") == kept)
        #expect(try keyring.credentials(forKey: "\u{FEFF}work") == nil)
        #expect(try keyring.list().map(\.key) == ["work"])
        #expect(try PrivateSecretService.itemCount(["tag": "swift-keyring", "service": keyring.service]) == 1)
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
