import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// What etcd sees, and who can open it.
@Suite("etcd store sealing")
struct EtcdSealingTests {
    @Test("etcd holds no password, username, URL, record key or service name")
    func nothingReadable() throws {
        let cluster = try EtcdCluster.shared()
        let keyring = try Keyring(
            service: "com.example.visible-service",
            store: Fixtures.store(cluster, prefix: Fixtures.prefix(), keyFile: try Fixtures.keyFile()))
        defer { _ = try? keyring.removeAll() }
        let credentials = try Credentials(
            username: "visible-username", password: "visible-password", url: URL(string: "https://visible-host.example.org/path")!
        )
        try keyring.set(credentials, forKey: "visible-record-key")
        try keyring.setSecret(Data("visible-secret-bytes".utf8), forKey: "visible-secret-key")
        // The store wrote what we look for, so a dump that shows nothing shows it hidden.
        #expect(try keyring.credentials(forKey: "visible-record-key") == credentials)
        let dump = try cluster.dump()
        #expect(!dump.isEmpty)
        for word in [
            "visible-password", "visible-username", "visible-host", "visible-record-key", "visible-service",
            "visible-secret", "com.example", "registry.example.com",
        ] {
            #expect(dump.range(of: Data(word.utf8)) == nil, "etcd shows \"\(word)\"")
        }
    }

    @Test("A wrong key is wrongPassphrase before anything is read; a passphrase prefix refuses a key")
    func wrongKey() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let keyring = try Keyring(service: Fixtures.service(), store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile))
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Fixtures.credentials("alice"), forKey: "k")
        #expect(throws: KeyringError.wrongPassphrase) {
            _ = try Fixtures.store(cluster, prefix: prefix, keyFile: try Fixtures.keyFile())
        }

        let cheap = Argon2idParameters(iterations: 1, memoryKiB: 64, parallelism: 1)
        let passphrasePrefix = Fixtures.prefix()
        func open(_ secret: FileStoreSecret) throws -> EtcdStore {
            try EtcdStore(
                configuration: EtcdConfiguration(
                    endpoints: cluster.endpoints, prefix: passphrasePrefix, secret: secret, keyDerivation: cheap,
                    stateFolder: Fixtures.hostState, environment: [:]
                ))
        }
        let first = try Keyring(service: "com.example.pass", store: open(.passphrase("correct horse")))
        try first.set(try Fixtures.credentials("carol"), forKey: "k")
        // Another host derives the same key from the salt and cost kept in etcd.
        let second = try Keyring(service: "com.example.pass", store: open(.passphrase("correct horse")))
        #expect(try second.credentials(forKey: "k")?.username == "carol")
        #expect(throws: KeyringError.wrongPassphrase) { _ = try open(.passphrase("battery staple")) }
        #expect(throws: KeyringError.wrongPassphrase) { _ = try open(.keyFile(keyFile)) }
        _ = try first.removeAll()
    }

    @Test("A value copied onto another record's key does not open: it is .damaged, and the other record still reads")
    func valuesAreBoundToTheirKeys() throws {
        let cluster = try EtcdCluster.shared()
        let prefix = Fixtures.prefix()
        let keyring = try Keyring(
            service: Fixtures.service(), store: Fixtures.store(cluster, prefix: prefix, keyFile: try Fixtures.keyFile()))
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Fixtures.credentials("alice", password: "alice-pw"), forKey: "a")
        try keyring.set(try Fixtures.credentials("bob", password: "bob-pw"), forKey: "b")
        let records = try Gateway.pairs(cluster.endpoints[0], prefix: prefix + "r/")
        try #require(records.count == 2)
        // Whichever key is which, the first's value now sits under the second's key too.
        _ = try Gateway.post(cluster.endpoints[0], "v3/kv/put", ["key": records[1].key, "value": records[0].value])
        var damaged = 0
        var intact = 0
        for key in ["a", "b"] {
            do {
                _ = try keyring.credentials(forKey: key)
                intact += 1
            } catch KeyringError.Code.damaged {
                damaged += 1
            }
        }
        #expect(damaged == 1 && intact == 1)
    }
}
