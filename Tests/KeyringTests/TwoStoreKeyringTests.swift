import Foundation
import SwiftKeyring
import Testing

/// The two-store keyring's rules on memory stores; `SyncAcrossHostsTests` holds them on etcd.
@Suite("Two-store keyring")
struct TwoStoreKeyringTests {
    /// A shared store that never answers in time, as a cluster without quorum.
    final class SilentStore: CredentialStore {
        var identity: StoreIdentity { StoreIdentity(kind: StoreKind("fleet"), details: [StoreDetail("cluster", "fleet-7")]) }
        func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? { throw call.deadline.timedOut("reading") }
        func save(_ record: StoredRecord, call: StoreCall) throws { throw call.deadline.timedOut("storing") }
        func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool { throw call.deadline.timedOut("removing") }
        func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
            throw call.deadline.timedOut("listing")
        }
        func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
            throw call.deadline.timedOut("removing all")
        }
    }

    let url = URL(string: "https://example.com")!

    @Test("Without a shared store a synced record stays local, as before")
    func noSharedStore() throws {
        let local = MemoryStore()
        let keyring = try Keyring(service: "test.two", store: local)
        try keyring.set(try Credentials(username: "a", password: "pw", url: url, syncEnabled: true), forKey: "k")
        #expect(try keyring.list().map(\.place) == [.local])
        #expect(try keyring.list().map(\.syncEnabled) == [true])
        #expect(try local.record(for: RecordID(service: "test.two", key: "k", kind: .credentials)) != nil)
    }

    @Test(
        "A shared store that does not answer: synced calls are unavailable naming it, nothing is written locally, device-only calls work"
    )
    func silentSharedStore() throws {
        let local = MemoryStore()
        let keyring = try Keyring(service: "test.two", store: local, syncStore: SilentStore())
        #expect {
            try keyring.set(try Credentials(username: "a", password: "secret-pw", url: url, syncEnabled: true), forKey: "k")
        } throws: { error in
            guard let error = error as? KeyringError else { return false }
            return error.code == .serviceUnavailable && error.unavailability?.kind == .noSharedStore
                && error.place == KeyringError.Place("fleet") && error.description.contains("fleet-7")
                && !error.description.contains("secret-pw")
        }
        #expect(try local.summaries(service: "test.two", kind: nil).isEmpty)
        #expect {
            _ = try keyring.credentials(forKey: "k")
        } throws: { ($0 as? KeyringError)?.unavailability?.kind == .noSharedStore }

        try keyring.set(try Credentials(username: "b", password: "pw", url: url), forKey: "desk")
        #expect(try keyring.password(forKey: "desk") == "pw")
        #expect(try keyring.list(place: .local).map(\.key) == ["desk"])
        #expect(try keyring.remove(forKey: "desk"))
        #expect(try keyring.removeAll(thisMachineOnly: true) == 0)
    }

    @Test("Keys that differ only in Unicode normalisation are two records across the two stores, as in one")
    func exactKeysAcrossStores() throws {
        let keyring = try Keyring(service: "test.two", store: MemoryStore(), syncStore: MemoryStore())
        try keyring.setSecret(Data("here".utf8), forKey: "caf\u{E9}")
        try keyring.setSecret(Data("fleet".utf8), forKey: "cafe\u{301}", sync: true)
        #expect(try keyring.secretKeys().count == 2)
        try keyring.set(try Credentials(username: "a", password: "pw", url: url), forKey: "caf\u{E9}")
        try keyring.set(try Credentials(username: "b", password: "pw", url: url, syncEnabled: true), forKey: "cafe\u{301}")
        #expect(try keyring.list().map(\.place).sorted { $0.rawValue < $1.rawValue } == [.local, .shared])
    }

    @Test("The async face reads a synced record the local store answers as absent at once")
    func asyncReachesShared() async throws {
        let shared = MemoryStore()
        let keyring = try Keyring(service: "test.two", store: MemoryStore(), syncStore: shared)
        try await keyring.set(try Credentials(username: "a", password: "pw", url: url, syncEnabled: true), forKey: "k")
        try await keyring.setSecret(Data("s".utf8), forKey: "s", sync: true)
        #expect(try await keyring.password(forKey: "k") == "pw")
        #expect(try await keyring.credentials(forKey: "k")?.username == "a")
        #expect(try await keyring.secret(forKey: "s") == Data("s".utf8))
        #expect(try shared.summaries(service: "test.two", kind: nil).count == 2)
    }
}
