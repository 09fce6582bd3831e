import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// The library and `secret-tool` see the same items, on the private Secret
/// Service of `Scripts/with-secret-service.sh` (gnome-keyring),
/// `Scripts/with-keepassxc.sh` (KeePassXC) or `Scripts/with-kwallet.sh` (KWallet).
@Suite("Secret Service interop")
struct SecretServiceInteropTests {
    private func keyring() throws -> Keyring {
        try Keyring(service: TestStore.uniqueService("interop"), store: PrivateSecretService.makeStore())
    }

    @Test("The private Secret Service is served by the daemon this run names")
    func daemonIsTheNamedOne() throws {
        // Without this, a pass meant for KeePassXC could pass against a gnome-keyring
        // that D-Bus activation started in its place.
        let reply = try ChildProcess.run(
            [
                "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets",
            ], environment: PrivateSecretService.environment())
        #expect(reply.status == 0, "nobody owns org.freedesktop.secrets: \(reply.standardError)")
        let pid = try #require(
            String(decoding: reply.standardOutput, as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).last.flatMap { Int32($0) })
        let command = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        switch PrivateSecretService.daemon {
        case .gnomeKeyring: #expect(command.hasPrefix("gnome-keyring"), "the Secret Service is \(command)")
        case .keepassxc: #expect(command == "keepassxc", "the Secret Service is \(command)")
        case .kwallet: #expect(command == "kwalletd5", "the Secret Service is \(command)")
        }
    }

    @Test(
        "unlock(password:): KeePassXC and KWallet say they cannot unlock that way, naming themselves; gnome-keyring takes the call"
    )
    func passwordUnlock() throws {
        let store = try PrivateSecretService.makeStore()
        switch PrivateSecretService.daemon {
        case .gnomeKeyring:
            // The run's collection is unlocked already, which gnome-keyring answers with success whatever the password.
            #expect(throws: Never.self) { try store.unlock(password: "any") }
        case .keepassxc, .kwallet:
            let error = BoundedCall.keyringError(within: .seconds(30)) { try store.unlock(password: "any") }
            let name = PrivateSecretService.daemon == .keepassxc ? "keepassxc" : "kwalletd5"
            #expect(error?.unavailability?.kind == .noPasswordUnlock, "\(String(describing: error))")
            #expect(error?.description.contains(name) == true, "\(String(describing: error))")
        }
        #expect(try store.isLocked() == false)
    }

    @Test(
        "secret-tool lookup finds what the library stored, byte for byte",
        arguments: [
            "plain-password-123",
            "päßwörd ünïcödé 🔑 ключ",
        ])
    func secretToolReadsLibraryItems(password: String) throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials(password: password), forKey: "github")
        let same =
            try PrivateSecretService.lookup(["tag": "swift-keyring", "service": keyring.service, "key": "github"])
            == Data(password.utf8)
        #expect(same, "secret-tool printed a different password")
    }

    @Test("The library reads what secret-tool stored with our attributes")
    func libraryReadsSecretToolItems() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        let password = "from secret-tool ü 🔐"
        let stored = try PrivateSecretService.secretTool(
            [
                "store", "--label=planted", "tag", "swift-keyring", "service", keyring.service, "key", "planted",
                "kind", "credentials", "username", "bob", "url", "https://example.com/login",
                "sync", "true", "background-access", "false",
            ], input: Data(password.utf8))
        #expect(stored.status == 0, "secret-tool: \(stored.standardError)")
        let read = try #require(try keyring.credentials(forKey: "planted"))
        #expect(read.username == "bob")
        #expect(read.url.absoluteString == "https://example.com/login")
        #expect(read.syncEnabled && !read.backgroundAccess)
        let same = read.password == password
        #expect(same, "the library read a different password")
        #expect(try keyring.list().map(\.key) == ["planted"])

        let secret = try PrivateSecretService.secretTool(
            [
                "store", "--label=planted secret", "tag", "swift-keyring", "service", keyring.service, "key", "token", "kind",
                "secret",
            ],
            input: Data("opaque token".utf8)
        )
        #expect(secret.status == 0, "secret-tool: \(secret.standardError)")
        let token = try keyring.secret(forKey: "token")
        let sameSecret = token == Data("opaque token".utf8)
        #expect(sameSecret, "the library read a different secret")
    }

    @Test("removeAll leaves another service's items and foreign items without our tag")
    func removeAllKeepsOthers() throws {
        let mine = try keyring()
        let other = try Keyring(service: TestStore.uniqueService("other"), store: mine.store)
        defer {
            _ = try? other.removeAll()
            _ = try? PrivateSecretService.secretTool(["clear", "service", mine.service, "key", "work"])
        }
        // Planted first: secret-tool store replaces any item whose attributes include its own.
        let foreignPassword = "foreign item"
        let planted = try PrivateSecretService.secretTool(
            ["store", "--label=foreign", "service", mine.service, "key", "work", "kind", "credentials"],
            input: Data(foreignPassword.utf8)
        )
        #expect(planted.status == 0, "secret-tool: \(planted.standardError)")
        try mine.setDefault(try Samples.credentials("me"))
        try mine.set(try Samples.credentials("me"), forKey: "work")
        try other.set(try Samples.credentials("them"), forKey: "work")

        #expect(try mine.removeAll() == 2)
        #expect(try mine.list().isEmpty)
        #expect(try other.credentials(forKey: "work")?.username == "them")
        let same = try PrivateSecretService.lookup(["service": mine.service, "key": "work"]) == Data(foreignPassword.utf8)
        #expect(same, "the foreign item was changed or removed")
    }

    @Test("A foreign item with our service and key but no tag survives set, replace, remove and removeAll")
    func foreignItemSurvives() throws {
        let keyring = try keyring()
        let foreign = ["service": keyring.service, "key": "work", "kind": "credentials", "owner": "another-program"]
        defer {
            _ = try? keyring.removeAll()
            _ = try? PrivateSecretService.secretTool(
                ["clear"] + foreign.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
        }
        let foreignPassword = "the other program's password"
        let planted = try PrivateSecretService.secretTool(
            ["store", "--label=foreign"] + foreign.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] },
            input: Data(foreignPassword.utf8)
        )
        #expect(planted.status == 0, "secret-tool: \(planted.standardError)")
        func foreignIsIntact(_ step: String) throws {
            let same = try PrivateSecretService.lookup(foreign) == Data(foreignPassword.utf8)
            #expect(same, "the foreign item was changed or removed by \(step)")
            #expect(try PrivateSecretService.itemCount(foreign) == 1, "\(step) left a foreign item count other than one")
        }
        try keyring.set(try Samples.credentials("alice", password: "one"), forKey: "work")
        try foreignIsIntact("set")
        try keyring.set(try Samples.credentials("alice", password: "two"), forKey: "work")
        try foreignIsIntact("a replace of the password")
        try keyring.set(try Samples.credentials("bob", password: "three", sync: true), forKey: "work")
        try foreignIsIntact("a replace of the username")
        #expect(try keyring.credentials(forKey: "work")?.username == "bob")
        #expect(try keyring.remove(forKey: "work"))
        try foreignIsIntact("remove")
        #expect(try keyring.remove(forKey: "work") == false)
        try keyring.set(try Samples.credentials("carol"), forKey: "work")
        #expect(try keyring.removeAll() == 1)
        try foreignIsIntact("removeAll")
        #expect(try keyring.credentials(forKey: "work") == nil)
    }

    @Test("Replacing leaves exactly one item, even when username, URL and flags change")
    func replaceLeavesOneItem() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        let scope = ["tag": "swift-keyring", "service": keyring.service]
        try keyring.set(try Samples.credentials("alice", password: "one"), forKey: "work")
        try keyring.set(try Samples.credentials("alice", password: "two"), forKey: "work")
        #expect(try PrivateSecretService.itemCount(scope) == 1)
        let url = URL(string: "https://other.example.org")!
        try keyring.set(try Samples.credentials("bob", password: "three", url: url, sync: true, background: true), forKey: "work")
        #expect(try PrivateSecretService.itemCount(scope) == 1)
        // A stale duplicate another program left behind goes too.
        let planted = try PrivateSecretService.secretTool(
            [
                "store", "--label=stale", "tag", "swift-keyring", "service", keyring.service, "key", "work", "kind",
                "credentials",
                "username", "carol",
            ],
            input: Data("stale".utf8)
        )
        #expect(planted.status == 0, "secret-tool: \(planted.standardError)")
        #expect(try PrivateSecretService.itemCount(scope) == 2)
        try keyring.set(try Samples.credentials("dave", password: "four"), forKey: "work")
        #expect(try PrivateSecretService.itemCount(scope) == 1)
        let read = try #require(try keyring.credentials(forKey: "work"))
        #expect(read.username == "dave")
        let samePassword = read.password == "four"
        #expect(samePassword, "the password read back differs")
    }

    @Test("Items carry a label a person can read in Seahorse")
    func labels() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials("alice", url: URL(string: "https://github.com/login")!), forKey: "github")
        try keyring.setDefault(try Samples.credentials("bob"))
        try keyring.setSecret(Data("t".utf8), forKey: "token")
        let output = try PrivateSecretService.secretTool(["search", "--all", "tag", "swift-keyring", "service", keyring.service])
        let labels = String(decoding: output.standardOutput, as: UTF8.self)
            .split(separator: "\n")
            .filter { $0.hasPrefix("label = ") }
            .map { String($0.dropFirst("label = ".count)) }
            .sorted()
        #expect(
            labels
                == [
                    "\(keyring.service) token",
                    "\(keyring.service) — bob @ mail.example.com",
                    "github — alice @ github.com",
                ].sorted())
    }
}
