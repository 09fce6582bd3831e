import Foundation
import Glibc
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Sessions sharing a service")
struct SessionSharingTests {
    @Test("Two sessions on the same service see each other's saves", arguments: TestStore.allCases)
    func seeEachOthersSaves(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let first = fixture.session
        let second = try fixture.secondSession()

        try first.set("draft one", for: .draft)
        #expect(try second.string(for: .draft) == "draft one")
        try second.set("draft two", for: .draft)
        #expect(try first.string(for: .draft) == "draft two")

        try second.set("tok", for: .token)
        try second.set("u-1", for: .userID)
        #expect(try first.status == .loggedIn)
        try first.logout()
        #expect(try second.status == .loggedOut)
        #expect(try second.string(for: .token) == nil)
    }

    @Test("Concurrent writers through two sessions lose none of each other's writes", arguments: TestStore.allCases)
    func concurrentWritersLoseNothing(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let sessions = [fixture.session, try fixture.secondSession()]
        let plain = TestProperty.allCases.filter { !$0.isSecure }
        let rounds = 20
        let failures = Collected<String>()
        // Each thread owns one property and writes it through both sessions in turn;
        // a write made from a stale copy of the file would bring back another thread's older value.
        DispatchQueue.concurrentPerform(iterations: plain.count) { thread in
            do {
                for round in 0..<rounds {
                    try sessions[round % 2].set(round, for: plain[thread])
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        for property in plain {
            #expect(try sessions[0].int(for: property) == rounds - 1, "\(property.rawValue)")
        }
    }

    @Test("A writer that cannot get the lock in time gives up with a timeout", arguments: TestStore.allCases)
    func lockTimeout(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let impatient = try Session<TestProperty>(
            keyring: fixture.keyring, requiredProperties: [], stateDirectory: fixture.folder.url, lockTimeout: .milliseconds(100))
        try impatient.set("old", for: .draft)
        let lockPath = fixture.folder.url.appending(path: "state.lock").path
        // The session made its lock file with the first write; holding it is this test's set-up.
        let holder = open(lockPath, O_RDWR)
        try #require(holder >= 0, "the session has no lock file at \(lockPath)")
        defer { close(holder) }
        try #require(flock(holder, LOCK_EX) == 0)
        #expect(throws: KeyringError.timedOut(operation: "locking \(lockPath)", seconds: 0.1)) {
            try impatient.set("new", for: .draft)
        }
        #expect(try impatient.string(for: .draft) == "old")
        // Once the lock is free the same writer gets through: the timeout was the lock's, not a broken session.
        flock(holder, LOCK_UN)
        try impatient.set("new", for: .draft)
        #expect(try impatient.string(for: .draft) == "new")
    }
}
