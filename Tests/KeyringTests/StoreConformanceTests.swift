import Foundation
import Keyring
import KeyringTestSupport
import Testing

/// One suite, written once, run against every store.
@Suite("Store conformance")
struct StoreConformanceTests {
    @Test("Every field round-trips", arguments: TestStore.underTest)
    func fieldsRoundTrip(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let url = URL(string: "HTTPS://Example.com:8443/path?q=1&r=%20")!
        let stored = try Samples.credentials("bøb 🦊", url: url, sync: true, background: true)
        try keyring.set(stored, forKey: "work ключ 🔑")
        let read = try #require(try keyring.credentials(forKey: "work ключ 🔑"))
        #expect(read == stored)
        #expect(read.url.absoluteString == "HTTPS://Example.com:8443/path?q=1&r=%20")
        #expect(read.syncEnabled && read.backgroundAccess)
    }

    @Test("Hard passwords round-trip exactly", arguments: TestStore.underTest)
    func passwordsRoundTrip(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        for (index, password) in Samples.hardPasswords.enumerated() {
            try keyring.set(try Samples.credentials(password: password), forKey: "k\(index)")
        }
        for (index, password) in Samples.hardPasswords.enumerated() {
            let read = try #require(try keyring.credentials(forKey: "k\(index)"))
            #expect(read.password == password, "password \(index) (\(password.utf8.count) bytes) changed")
            #expect(try keyring.password(forKey: "k\(index)") == password, "password-only read \(index) changed")
        }
        #expect(try keyring.password(forKey: "missing") == nil)
    }

    @Test("Setting a key again replaces it: one record afterwards", arguments: TestStore.underTest)
    func replace(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials("alice", password: "one"), forKey: "work")
        try keyring.set(try Samples.credentials("bob", password: "two", sync: true), forKey: "work")
        let read = try #require(try keyring.credentials(forKey: "work"))
        #expect(read.username == "bob" && read.password == "two" && read.syncEnabled)
        #expect(try keyring.list().map(\.key) == ["work"])
    }

    @Test("Missing records read as nil and remove as false", arguments: TestStore.underTest)
    func missing(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        #expect(try keyring.credentials(forKey: "nothing") == nil)
        #expect(try keyring.defaultCredentials() == nil)
        #expect(try keyring.remove(forKey: "nothing") == false)
        #expect(try keyring.secret(forKey: "nothing") == nil)
    }

    @Test("Remove takes exactly one record", arguments: TestStore.underTest)
    func remove(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials("a"), forKey: "one")
        try keyring.set(try Samples.credentials("b"), forKey: "two")
        #expect(try keyring.remove(forKey: "one"))
        #expect(try keyring.credentials(forKey: "one") == nil)
        #expect(try keyring.credentials(forKey: "two")?.username == "b")
    }

    @Test("Default and keyed records are separate", arguments: TestStore.underTest)
    func defaultVersusKeyed(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.setDefault(try Samples.credentials("main"))
        try keyring.set(try Samples.credentials("other"), forKey: "other")
        #expect(try keyring.defaultCredentials()?.username == "main")
        #expect(try keyring.credentials(forKey: "other")?.username == "other")
        #expect(try keyring.removeDefault())
        #expect(try keyring.defaultCredentials() == nil)
        #expect(try keyring.credentials(forKey: "other")?.username == "other")
    }

    @Test("List shows keys, usernames, URLs and flags, and filters on the flags", arguments: TestStore.underTest)
    func list(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.setDefault(try Samples.credentials("d"))
        try keyring.set(try Samples.credentials("s", sync: true), forKey: "synced")
        try keyring.set(try Samples.credentials("b", background: true), forKey: "background")
        try keyring.setSecret(Data("token".utf8), forKey: "token")
        let all = try keyring.list()
        #expect(all.map(\.key) == [Keyring.defaultKey, "background", "synced"])
        #expect(all.map(\.username) == ["d", "b", "s"])
        #expect(all.allSatisfy { $0.url == Samples.url })
        #expect(all.first?.isDefault == true)
        #expect(try keyring.list(syncEnabled: true).map(\.key) == ["synced"])
        #expect(try keyring.list(backgroundAccess: true).map(\.key) == ["background"])
        #expect(try keyring.list(syncEnabled: false, backgroundAccess: false).map(\.key) == [Keyring.defaultKey])
        #expect(try keyring.secretKeys() == ["token"])
    }

    @Test("Secrets and credentials under one key never collide; any bytes round-trip", arguments: TestStore.underTest)
    func secrets(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        var bytes = Data((0...255).map(UInt8.init))
        bytes.append(contentsOf: [0xFF, 0xFE, 0x00, 0xC3])  // not UTF-8
        try keyring.set(try Samples.credentials("shared"), forKey: "shared")
        try keyring.setSecret(bytes, forKey: "shared")
        #expect(try keyring.secret(forKey: "shared") == bytes)
        #expect(try keyring.credentials(forKey: "shared")?.username == "shared")
        #expect(try keyring.removeSecret(forKey: "shared"))
        #expect(try keyring.credentials(forKey: "shared") != nil)
    }

    @Test("removeAll takes this service's records and leaves another service's", arguments: TestStore.underTest)
    func removeAllKeepsOtherServices(store: TestStore) throws {
        let mine = try store.makeKeyring()
        let other = try Keyring(service: TestStore.uniqueService("other"), store: mine.store)
        defer { _ = try? other.removeAll() }
        try mine.setDefault(try Samples.credentials("me"))
        try mine.set(try Samples.credentials("me2"), forKey: "k")
        try mine.setSecret(Data("s".utf8), forKey: "s")
        try other.set(try Samples.credentials("them"), forKey: "k")
        #expect(try mine.removeAll() == 3)
        #expect(try mine.list().isEmpty)
        #expect(try mine.secretKeys().isEmpty)
        #expect(try other.credentials(forKey: "k")?.username == "them")
    }

    @Test("Invalid records are refused and change nothing", arguments: TestStore.underTest)
    func invalidRecordsChangeNothing(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let good = try Samples.credentials("kept")
        try keyring.set(good, forKey: "k")
        var bad = good
        bad.url = URL(string: "ftp://files.example.com")!
        #expect(throws: KeyringError.invalidRecord(field: "url", reason: "must use http or https, not ftp")) {
            try keyring.set(bad, forKey: "k")
        }
        bad = good
        bad.username = ""
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not be empty")) {
            try keyring.set(bad, forKey: "k")
        }
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: "must not be empty")) {
            try keyring.set(good, forKey: "")
        }
        #expect(try keyring.credentials(forKey: "k") == good)
    }

    @Test("16 threads of mixed calls on one keyring lose nothing", arguments: TestStore.underTest)
    func sixteenThreads(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let perThread = 10
        let failures = ConcurrentFailures()
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            do {
                for index in 0..<perThread {
                    let key = "t\(thread)-\(index)"
                    try keyring.set(try Samples.credentials("u\(thread)", password: "p\(thread)-\(index)"), forKey: key)
                    _ = try keyring.credentials(forKey: key)
                    _ = try keyring.list()
                    if index % 3 == 0 { try keyring.setSecret(Data(key.utf8), forKey: key) }
                }
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        let keys = Set(try keyring.list().map(\.key))
        for thread in 0..<16 {
            for index in 0..<perThread {
                let key = "t\(thread)-\(index)"
                #expect(keys.contains(key), "\(key) missing from list")
                #expect(try keyring.credentials(forKey: key)?.password == "p\(thread)-\(index)")
            }
        }
        #expect(try keyring.secretKeys().count == 16 * 4)
    }
}
