import Foundation
import SwiftKeyring
import Synchronization
import Testing

/// Issue 37: a shared store opened by the first call that needs it, so device-only records
/// the local store holds are read and written with the fleet down, in a fresh keyring too.
@Suite("LazyStore")
struct LazyStoreTests {
    /// Counts openings; each opening fails while `down` is set, as a cluster without quorum.
    final class Opener: Sendable {
        let state = Mutex<(openings: Int, down: Bool)>((0, true))
        let opened = MemoryStore()
        var openings: Int { state.withLock { $0.openings } }
        func setDown(_ down: Bool) { state.withLock { $0.down = down } }

        func store() -> LazyStore {
            LazyStore(
                identity: StoreIdentity(kind: StoreKind("fleet"), details: [StoreDetail("cluster", "fleet-9")]),
                callTimeout: .seconds(2)
            ) {
                [self] _ in
                let down = state.withLock { state in
                    state.openings += 1
                    return state.down
                }
                if down { throw KeyringError.serviceUnavailable(reason: .noSharedStore(detail: "fleet-9 has no quorum")) }
                return opened
            }
        }
    }

    let service = "test.lazy"
    let url = URL(string: "https://example.com")!

    @Test("Device-only calls on records the local store holds never open the shared store")
    func deviceOnlyNeverOpens() throws {
        let opener = Opener()
        let local = MemoryStore()
        let setUp = try Keyring(service: service, store: local, syncStore: MemoryStore(), sharedCopies: .inMemory())
        try setUp.set(try Credentials(username: "me", password: "desk-pw", url: url), forKey: "desk")

        let keyring = try Keyring(service: service, store: local, syncStore: opener.store(), sharedCopies: .inMemory())
        #expect(try keyring.password(forKey: "desk") == "desk-pw", "desk")
        #expect(try keyring.credentials(forKey: "desk")?.username == "me")
        try keyring.set(try Credentials(username: "me", password: "new-pw", url: url), forKey: "newlocal")
        #expect(try keyring.password(forKey: "newlocal") == "new-pw", "newlocal")
        #expect(try keyring.list(place: .local).map(\.key) == ["desk", "newlocal"])
        #expect(try keyring.remove(forKey: "newlocal"))
        #expect(try keyring.removeAll(thisMachineOnly: true) == 1)
        #expect(opener.openings == 0)
    }

    @Test("The async face reads a device-only record without opening the shared store")
    func asyncNeverOpens() async throws {
        let opener = Opener()
        let local = MemoryStore()
        try local.save(
            StoredRecord(
                id: RecordID(service: service, key: "desk", kind: .credentials),
                metadata: RecordMetadata(username: "me", url: url.absoluteString), secret: Array("desk-pw".utf8)))
        let keyring = try Keyring(service: service, store: local, syncStore: opener.store(), sharedCopies: .inMemory())
        #expect(try await keyring.password(forKey: "desk") == "desk-pw", "desk")
        #expect(try await keyring.credentials(forKey: "desk")?.username == "me")
        #expect(opener.openings == 0)
    }

    @Test("With the shared store down, a chosen password (git's get without a username) comes from this machine's records")
    func chosenFromLocal() throws {
        let opener = Opener()
        let local = MemoryStore()
        let setUp = try Keyring(service: service, store: local)
        try setUp.set(try Credentials(username: "b", password: "b-pw", url: url), forKey: "https://b")
        try setUp.set(try Credentials(username: "a", password: "a-pw", url: url), forKey: "https://a")
        let keyring = try Keyring(service: service, store: local, syncStore: opener.store(), sharedCopies: .inMemory())
        let chosen = try keyring.chosenPassword { $0.sorted() }
        #expect(chosen?.key == "https://a")
        #expect(chosen?.password == "a-pw", "the chosen record's password")
        // Records themselves are not at stake: a synced set still fails.
        #expect {
            try keyring.set(try Credentials(username: "c", password: "c-pw", url: url, syncEnabled: true), forKey: "c")
        } throws: { ($0 as? KeyringError)?.code == .serviceUnavailable }
    }

    @Test("Synced calls open it, fail as unavailable naming it, and write nothing here; a later call opens it once it is back")
    func syncedCallsOpen() throws {
        let opener = Opener()
        let local = MemoryStore()
        let lazy = opener.store()
        let keyring = try Keyring(service: service, store: local, syncStore: lazy, sharedCopies: .inMemory())
        #expect(lazy.identity.details.contains(StoreDetail("cluster", "fleet-9")))
        #expect {
            try keyring.set(try Credentials(username: "a", password: "fleet-pw", url: url, syncEnabled: true), forKey: "k")
        } throws: { error in
            guard let error = error as? KeyringError else { return false }
            return error.code == .serviceUnavailable && error.place == KeyringError.Place("fleet")
                && error.description.contains("fleet-9") && !error.description.contains("fleet-pw")
        }
        #expect(try local.summaries(service: service, kind: nil).isEmpty)
        #expect { _ = try keyring.credentials(forKey: "k") } throws: { ($0 as? KeyringError)?.code == .serviceUnavailable }
        #expect(!lazy.isOpen)

        opener.setDown(false)
        try keyring.set(try Credentials(username: "a", password: "fleet-pw", url: url, syncEnabled: true), forKey: "k")
        #expect(try keyring.password(forKey: "k") == "fleet-pw", "k")
        #expect(try opener.opened.record(for: RecordID(service: service, key: "k", kind: .credentials)) != nil)
        #expect(lazy.isOpen)
        #expect(lazy.identity == StoreIdentity(kind: .memory))
        #expect(opener.openings == 3)
    }
}
