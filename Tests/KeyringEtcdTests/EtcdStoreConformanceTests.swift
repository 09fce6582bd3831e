import Foundation
import Keyring
import KeyringEtcd
import Testing

/// The store contract of Tests/KeyringTests/StoreConformanceTests.swift, on `EtcdStore`
/// against the shared 3-node cluster; each test under a service of its own.
@Suite("etcd store conformance")
struct EtcdStoreConformanceTests {
    /// One prefix and key for the suite, as a fleet would share them.
    static let prefix = Fixtures.prefix()
    static let keyFile = try! Fixtures.keyFile("conformance")

    func keyring(_ service: String = Fixtures.service()) throws -> Keyring {
        try Keyring(service: service, store: Fixtures.store(try EtcdCluster.shared(), prefix: Self.prefix, keyFile: Self.keyFile))
    }

    @Test("Every field round-trips")
    func fieldsRoundTrip() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        let url = URL(string: "HTTPS://Example.com:8443/path?q=1&r=%20")!
        let stored = try Credentials(
            username: "bøb 🦊", password: "pä55 wörd\u{0}tab\t", url: url, syncEnabled: true, backgroundAccess: true)
        try keyring.set(stored, forKey: "work ключ 🔑")
        let read = try #require(try keyring.credentials(forKey: "work ключ 🔑"))
        #expect(read == stored)
        #expect(read.url.absoluteString == "HTTPS://Example.com:8443/path?q=1&r=%20")
        #expect(try keyring.password(forKey: "work ключ 🔑") == stored.password)
    }

    @Test("Setting a key again replaces it: one record afterwards")
    func replace() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Fixtures.credentials("alice", password: "one"), forKey: "work")
        try keyring.set(try Fixtures.credentials("bob", password: "two", sync: true), forKey: "work")
        let read = try #require(try keyring.credentials(forKey: "work"))
        #expect(read.username == "bob" && read.password == "two" && read.syncEnabled)
        #expect(try keyring.list().map(\.key) == ["work"])
    }

    @Test("Missing records read as nil and remove as false")
    func missing() throws {
        let keyring = try keyring()
        #expect(try keyring.credentials(forKey: "nothing") == nil)
        #expect(try keyring.defaultCredentials() == nil)
        #expect(try keyring.remove(forKey: "nothing") == false)
        #expect(try keyring.secret(forKey: "nothing") == nil)
        #expect(try keyring.password(forKey: "nothing") == nil)
    }

    @Test("Remove takes exactly one record; default and keyed records are separate")
    func remove() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.setDefault(try Fixtures.credentials("main"))
        try keyring.set(try Fixtures.credentials("a"), forKey: "one")
        try keyring.set(try Fixtures.credentials("b"), forKey: "two")
        #expect(try keyring.remove(forKey: "one"))
        #expect(try keyring.credentials(forKey: "one") == nil)
        #expect(try keyring.credentials(forKey: "two")?.username == "b")
        #expect(try keyring.removeDefault())
        #expect(try keyring.defaultCredentials() == nil)
        #expect(try keyring.credentials(forKey: "two")?.username == "b")
    }

    @Test("List shows keys, usernames, URLs and flags, and filters on the flags")
    func list() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        try keyring.setDefault(try Fixtures.credentials("d"))
        try keyring.set(try Fixtures.credentials("s", sync: true), forKey: "synced")
        try keyring.set(try Fixtures.credentials("b", background: true), forKey: "background")
        try keyring.setSecret(Data("token".utf8), forKey: "token")
        let all = try keyring.list()
        #expect(all.map(\.key) == [Keyring.defaultKey, "background", "synced"])
        #expect(all.map(\.username) == ["d", "b", "s"])
        #expect(all.allSatisfy { $0.url == Fixtures.url })
        #expect(try keyring.list(syncEnabled: true).map(\.key) == ["synced"])
        #expect(try keyring.list(backgroundAccess: true).map(\.key) == ["background"])
        #expect(try keyring.secretKeys() == ["token"])
    }

    @Test("Secrets and credentials under one key never collide; any bytes round-trip")
    func secrets() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        var bytes = Data((0...255).map(UInt8.init))
        bytes.append(contentsOf: [0xFF, 0xFE, 0x00, 0xC3])
        try keyring.set(try Fixtures.credentials("shared"), forKey: "shared")
        try keyring.setSecret(bytes, forKey: "shared")
        #expect(try keyring.secret(forKey: "shared") == bytes)
        #expect(try keyring.credentials(forKey: "shared")?.username == "shared")
        #expect(try keyring.removeSecret(forKey: "shared"))
        #expect(try keyring.credentials(forKey: "shared") != nil)
    }

    @Test("removeAll takes this service's records and leaves another service's")
    func removeAllKeepsOtherServices() throws {
        let mine = try keyring()
        let other = try keyring(Fixtures.service("other"))
        defer { _ = try? other.removeAll() }
        try mine.setDefault(try Fixtures.credentials("me"))
        try mine.set(try Fixtures.credentials("me2"), forKey: "k")
        try mine.setSecret(Data("s".utf8), forKey: "s")
        try other.set(try Fixtures.credentials("them"), forKey: "k")
        #expect(try mine.removeAll() == 3)
        #expect(try mine.list().isEmpty)
        #expect(try mine.secretKeys().isEmpty)
        #expect(try other.credentials(forKey: "k")?.username == "them")
    }

    @Test("Invalid records are refused and change nothing")
    func invalidRecordsChangeNothing() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        let good = try Fixtures.credentials("kept")
        try keyring.set(good, forKey: "k")
        var bad = good
        bad.url = URL(string: "ftp://files.example.com")!
        #expect(throws: KeyringError.invalidRecord(field: "url", reason: "must use http or https, not ftp")) {
            try keyring.set(bad, forKey: "k")
        }
        #expect(try keyring.credentials(forKey: "k") == good)
    }

    @Test("16 threads of mixed calls on one keyring lose nothing")
    func sixteenThreads() throws {
        let keyring = try keyring()
        defer { _ = try? keyring.removeAll() }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            do {
                for index in 0..<5 {
                    let key = "t\(thread)-\(index)"
                    try keyring.set(try Fixtures.credentials("u\(thread)", password: "p\(thread)-\(index)"), forKey: key)
                    _ = try keyring.credentials(forKey: key)
                    _ = try keyring.list()
                }
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        let keys = Set(try keyring.list().map(\.key))
        #expect(keys.count == 16 * 5)
        for thread in 0..<16 {
            for index in 0..<5 {
                #expect(try keyring.credentials(forKey: "t\(thread)-\(index)")?.password == "p\(thread)-\(index)")
            }
        }
    }
}

/// Failures collected from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func record(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
