import Foundation
import KeyringTestSupport
import SwiftKeyring
import Synchronization
import Testing

/// Issue 37: a two-store keyring asks the shared store about a device-only record only when
/// this machine's marks say a copy may be there, and a move cut between its two steps is still
/// finished or undone by the key's next `set` or `remove`, in a new keyring on the same marks.
@Suite("Two-store keyring: marks of keys that may have a shared copy")
struct SharedCopyMarksTests {
    /// A memory store that counts the calls it is asked, and can be told to fail removals as a
    /// store that went away (or a host that died) between a move's two steps.
    final class CountingStore: CredentialStore {
        let inner = MemoryStore()
        private let state = Mutex<(calls: Int, failRemovals: Bool)>((0, false))
        var identity: StoreIdentity { StoreIdentity(kind: StoreKind("fleet")) }
        var calls: Int { state.withLock { $0.calls } }
        func failRemovals(_ fail: Bool) { state.withLock { $0.failRemovals = fail } }
        func resetCount() { state.withLock { $0.calls = 0 } }
        private func count() { state.withLock { $0.calls += 1 } }

        func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
            count()
            return try inner.record(for: id, call: call)
        }
        func save(_ record: StoredRecord, call: StoreCall) throws {
            count()
            try inner.save(record, call: call)
        }
        func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
            count()
            if state.withLock({ $0.failRemovals }) {
                throw KeyringError.serviceUnavailable(reason: .noSharedStore(detail: "went away mid-move"))
            }
            return try inner.removeRecord(for: id, call: call)
        }
        func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
            count()
            return try inner.summaries(service: service, kind: kind, call: call)
        }
        func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
            count()
            return try inner.removeAll(service: service, kind: kind, call: call)
        }
    }

    let service = "test.marks"
    let url = URL(string: "https://example.com")!

    func credentials(_ password: String, sync: Bool) throws -> Credentials {
        try Credentials(username: "mover", password: password, url: url, syncEnabled: sync)
    }

    func id(_ key: String) -> RecordID { RecordID(service: service, key: key, kind: .credentials) }

    /// The password of `key` in `store`, as a Bool against `expected` (no password is printed).
    func holds(_ store: any CredentialStore, _ key: String, _ expected: String?) throws -> Bool {
        let secret = try store.record(for: id(key))?.secret
        return secret.map { String(decoding: $0, as: UTF8.self) } == expected
    }

    @Test("A device-only set, get and remove of a key never synced ask the shared store nothing")
    func deviceOnlyAsksNothing() throws {
        let local = CountingStore()
        let shared = CountingStore()
        let keyring = try Keyring(
            service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: try TemporaryFolder.make()))
        try keyring.set(try credentials("one", sync: false), forKey: "desk")
        try keyring.set(try credentials("two", sync: false), forKey: "desk")
        #expect(try keyring.password(forKey: "desk") == "two", "desk")
        #expect(try keyring.credentials(forKey: "desk")?.username == "mover")
        #expect(try keyring.remove(forKey: "desk"))
        #expect(shared.calls == 0)
        #expect(local.calls > 0)
    }

    @Test("Setting a synced key device-only moves it, once; afterwards its sets ask the shared store nothing")
    func moveThenQuiet() throws {
        let shared = CountingStore()
        let local = MemoryStore()
        let keyring = try Keyring(
            service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: try TemporaryFolder.make()))
        try keyring.set(try credentials("fleet", sync: true), forKey: "k")
        #expect(try holds(shared.inner, "k", "fleet"), "k in the shared store")
        try keyring.set(try credentials("here", sync: false), forKey: "k")
        #expect(try shared.inner.record(for: id("k")) == nil)
        #expect(try holds(local, "k", "here"), "k in the local store")
        shared.resetCount()
        try keyring.set(try credentials("again", sync: false), forKey: "k")
        #expect(try keyring.remove(forKey: "k"))
        #expect(shared.calls == 0)
    }

    /// Which call a move is cut in, and what the key's next call is.
    enum Next: String, CaseIterable, CustomTestStringConvertible {
        case deviceOnlySet, syncedSet, remove
        var testDescription: String { rawValue }
    }

    @Test(
        "A move cut between its steps leaves both copies and a mark; a new keyring on the same marks reads the local copy and its next call leaves one place",
        arguments: [true, false], Next.allCases)
    func cutMove(toShared: Bool, next: Next) throws {
        let local = CountingStore()
        let shared = CountingStore()
        let folder = try TemporaryFolder.make()
        let first = try Keyring(service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: folder))
        try first.set(try credentials("old", sync: !toShared), forKey: "k")
        // The move's second step removes from the store it leaves; here that removal fails, as a crash would stop it.
        (toShared ? local : shared).failRemovals(true)
        do {
            try first.set(try credentials("new", sync: toShared), forKey: "k")
        } catch {
            // A move to the shared store reports its failed second step; one to the local store only logs it.
            #expect(toShared, "\(error)")
        }
        local.failRemovals(false)
        shared.failRemovals(false)
        #expect(try local.inner.record(for: id("k")) != nil)
        #expect(try shared.inner.record(for: id("k")) != nil)

        // "A new process": a keyring of its own on the same stores and the same marks folder.
        let second = try Keyring(service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: folder))
        // The local copy wins: the move to the shared store is undone, the one to the local store finished.
        #expect(try second.password(forKey: "k") == (toShared ? "old" : "new"), "k")
        #expect(try second.list().map(\.place) == [.local])
        switch next {
        case .deviceOnlySet:
            try second.set(try credentials("next", sync: false), forKey: "k")
            #expect(try holds(local.inner, "k", "next"), "k in the local store")
            #expect(try shared.inner.record(for: id("k")) == nil)
        case .syncedSet:
            try second.set(try credentials("next", sync: true), forKey: "k")
            #expect(try holds(shared.inner, "k", "next"), "k in the shared store")
            #expect(try local.inner.record(for: id("k")) == nil)
        case .remove:
            #expect(try second.remove(forKey: "k"))
            #expect(try local.inner.record(for: id("k")) == nil)
            #expect(try shared.inner.record(for: id("k")) == nil)
        }
        // One copy, and no more round trips for the key's device-only sets.
        #expect(try second.list().count == (next == .remove ? 0 : 1))
        if next != .syncedSet {
            shared.resetCount()
            try second.set(try credentials("last", sync: false), forKey: "k")
            #expect(shared.calls == 0)
        }
    }

    @Test("With the shared store down, a device-only set of a marked key is stored here, and the mark stays for the next set")
    func markOutlivesOutage() throws {
        let shared = CountingStore()
        let local = MemoryStore()
        let folder = try TemporaryFolder.make()
        let keyring = try Keyring(
            service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: folder))
        try keyring.set(try credentials("fleet", sync: true), forKey: "k")
        shared.failRemovals(true)
        try keyring.set(try credentials("here", sync: false), forKey: "k")
        #expect(try keyring.password(forKey: "k") == "here", "k")
        #expect(try shared.inner.record(for: id("k")) != nil)
        shared.failRemovals(false)
        let later = try Keyring(service: service, store: local, syncStore: shared, sharedCopies: SharedCopyMarks(folder: folder))
        try later.set(try credentials("later", sync: false), forKey: "k")
        #expect(try shared.inner.record(for: id("k")) == nil)
    }

    @Test("A key read from the shared store is marked, so setting it device-only moves it; a key never seen here stays shared")
    func readMarks() throws {
        let shared = MemoryStore()
        let hostA = try Keyring(
            service: service, store: MemoryStore(), syncStore: shared,
            sharedCopies: SharedCopyMarks(folder: try TemporaryFolder.make()))
        let hostB = try Keyring(
            service: service, store: MemoryStore(), syncStore: shared,
            sharedCopies: SharedCopyMarks(folder: try TemporaryFolder.make()))
        try hostA.set(try credentials("fleet", sync: true), forKey: "seen")
        try hostA.set(try credentials("fleet", sync: true), forKey: "unseen")
        #expect(try hostB.credentials(forKey: "seen") != nil)
        try hostB.set(try credentials("b", sync: false), forKey: "seen")
        try hostB.set(try credentials("b", sync: false), forKey: "unseen")
        #expect(try shared.record(for: id("seen")) == nil)
        // Host B never saw it: its own record shadows the fleet's here, and host A keeps reading the fleet's.
        #expect(try hostB.password(forKey: "unseen") == "b", "unseen on B")
        #expect(try hostA.password(forKey: "unseen") == "fleet", "unseen on A")
    }

    @Test("The marks folder is private and shows no service or key; removeAll leaves no mark of the service")
    func privateFolder() throws {
        let folder = try TemporaryFolder.make().appendingPathComponent("marks")
        let keyring = try Keyring(
            service: "visible.service", store: MemoryStore(), syncStore: MemoryStore(),
            sharedCopies: SharedCopyMarks(folder: folder))
        try keyring.set(try credentials("fleet", sync: true), forKey: "visible-key")
        var info = stat()
        #expect(stat(folder.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 2, "\(names)")
        #expect(!names.contains { $0.contains("visible") }, "\(names)")
        #expect(try keyring.removeAll() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["key"])
    }
}
