import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session observers")
struct SessionObserverTests {
    @Test("Every observer sees every change once, in order", arguments: TestStore.allCases)
    func everyObserverSeesEveryChange(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        // A session of its own: the fixture keeps its session alive, and this one must be released.
        var session: Session<TestProperty>? = try fixture.secondSession()
        let first = try #require(session).statusChanges()
        let second = try #require(session).statusChanges()
        let called = Collected<LoginStatus>()
        let observation = try #require(session).observeStatus { called.append($0) }

        try await session?.set("tok", for: .token)
        try await session?.set("u-1", for: .userID)  // logged in
        try await session?.set("u-2", for: .userID)  // no change
        try await session?.logout()  // logged out
        try await session?.logout()  // no change
        try await session?.set("tok", for: .token)
        try await session?.set("u-1", for: .userID)  // logged in
        try await session?.remove(.token)  // logged out
        let expected: [LoginStatus] = [.loggedIn, .loggedOut, .loggedIn, .loggedOut]

        // Releasing the session ends the streams, so collecting them to the end shows duplicates too.
        session = nil
        #expect(await StatusCollection.collect(first) == expected)
        #expect(await StatusCollection.collect(second) == expected)
        #expect(await waitFor(count: expected.count, in: called) == expected)
        observation.cancel()
    }

    @Test("Changes made on many threads reach every observer in the same order", arguments: TestStore.allCases)
    func concurrentChangesKeepOneOrder(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        var session: Session<TestProperty>? = try fixture.secondSession()
        let streams = [try #require(session).statusChanges(), try #require(session).statusChanges()]
        try await session?.set("tok", for: .token)
        let failures = Collected<String>()
        try changeOnManyThreads(try #require(session), failures: failures)
        #expect(failures.all.isEmpty)
        let final = try #require(session).status
        session = nil
        let seen = [await StatusCollection.collect(streams[0]), await StatusCollection.collect(streams[1])]
        #expect(seen[0] == seen[1])
        #expect(!seen[0].isEmpty)
        #expect(seen[0].last == final)
        // Only changes are reported, so logged in and logged out alternate, starting from logged out.
        for (index, status) in seen[0].enumerated() {
            #expect(status == (index % 2 == 0 ? .loggedIn : .loggedOut))
        }
    }

    private func changeOnManyThreads(_ session: Session<TestProperty>, failures: Collected<String>) throws {
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                for index in 0..<10 {
                    try session.set((thread + index) % 2 == 0 ? "u" : nil, for: .userID)
                }
            } catch {
                failures.append("\(error)")
            }
        }
    }

    /// The callback's values once it has `count` of them, giving up after 10 seconds.
    private func waitFor(count: Int, in collected: Collected<LoginStatus>) async -> [LoginStatus] {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while collected.all.count < count && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return collected.all
    }
}
