import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

/// The async faces of `Session` and `SecretStore` do what the sync ones do, and
/// their status changes reach observers once each, in order.
@Suite("Session and SecretStore from async code")
struct SessionAsyncTests {
    @Test("A session opened with await reads the status the stored values give", arguments: TestStore.allCases)
    func asyncOpen(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try await fixture.session.set("tok", for: .token)
        try await fixture.session.set("u-1", for: .userID)
        let opened = try await Session<TestProperty>(
            keyring: fixture.keyring, requiredProperties: TestProperty.required, stateDirectory: fixture.folder.url)
        #expect(try await opened.currentStatus() == .loggedIn)
        try await fixture.session.logout()
        let afterLogout = try await Session<TestProperty>(
            keyring: fixture.keyring, requiredProperties: TestProperty.required, stateDirectory: fixture.folder.url)
        #expect(try await afterLogout.currentStatus() == .loggedOut)
    }

    @Test(
        "Values saved and read with await, logout keeps the persisted ones; observers see each change once, in order",
        arguments: TestStore.allCases)
    func asyncFace(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        var session: Session<TestProperty>? = try fixture.secondSession()
        let changes = try #require(session).statusChanges()

        try await session?.set("tok", for: .token)
        #expect(try await session?.currentStatus() == .loggedOut)
        try await session?.set("u-1", for: .userID)  // logged in
        try await session?.set(Preferences(theme: "dark", fontSize: 12, tags: ["a"]), for: .email)
        try await session?.markLoggedIn()  // no change
        #expect(try await session?.currentStatus() == .loggedIn)
        #expect(try await session?.string(for: .token) == "tok")
        #expect(try await session?.value(Preferences.self, for: .email) == Preferences(theme: "dark", fontSize: 12, tags: ["a"]))
        #expect(try await session?.missingRequiredProperties() == [])

        try await session?.logout()  // logged out
        #expect(try await session?.string(for: .token) == nil)
        #expect(try await session?.string(for: .userID) == nil)
        #expect(try await session?.value(Preferences.self, for: .email) != nil)
        #expect(try await session?.missingRequiredProperties() == [.token, .userID])
        await #expect(throws: KeyringError.invalidRecord(field: "token", reason: "is required to log in and has no value")) {
            try await session?.markLoggedIn()
        }
        // What the async face wrote, the sync face reads.
        let syncRead: () throws -> Preferences? = { try fixture.session.value(Preferences.self, for: .email) }
        #expect(try syncRead()?.theme == "dark")

        // Releasing the session ends the stream, so collecting it to the end shows duplicates too.
        session = nil
        #expect(await StatusCollection.collect(changes) == [.loggedIn, .loggedOut])
    }

    @Test(
        "Changes from many tasks reach every observer in one order, ending with the status read last",
        arguments: TestStore.allCases)
    func concurrentTasks(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        var session: Session<TestProperty>? = try fixture.secondSession()
        let streams = [try #require(session).statusChanges(), try #require(session).statusChanges()]
        try await session?.set("tok", for: .token)
        try await changeFromManyTasks(try #require(session))
        let final = try await session?.currentStatus()
        session = nil
        let seen = [await StatusCollection.collect(streams[0]), await StatusCollection.collect(streams[1])]
        #expect(seen[0] == seen[1])
        #expect(seen[0].last == final)
        for (index, status) in seen[0].enumerated() {
            #expect(status == (index % 2 == 0 ? .loggedIn : .loggedOut))
        }
    }

    private func changeFromManyTasks(_ session: Session<TestProperty>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<5 {
                        try await session.set((task + index) % 2 == 0 ? "u" : nil, for: .userID)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("SecretStore's async face stores, lists and removes one account's secrets", arguments: TestStore.allCases)
    func secretStore(store: TestStore) async throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let alice = try SecretStore(keyring: fixture.keyring, account: "alice")
        let bob = try SecretStore(keyring: fixture.keyring, account: "bob")
        try await alice.set("ghp_1", forKey: "github")
        try await alice.set(Data([0, 255, 1]), forKey: "ssh")
        try await bob.set("other", forKey: "github")
        #expect(try await alice.string(forKey: "github") == "ghp_1")
        #expect(try await alice.data(forKey: "ssh") == Data([0, 255, 1]))
        #expect(try await alice.allKeys() == ["github", "ssh"])
        #expect(try await alice.remove(forKey: "github"))
        #expect(try await alice.remove(forKey: "github") == false)
        #expect(try await alice.removeAll() == 1)
        #expect(try await alice.allKeys().isEmpty)
        #expect(try await bob.string(forKey: "github") == "other")
    }
}
