import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session status")
struct SessionStatusTests {
    @Test("The status is logged in exactly when every required property has a value", arguments: TestStore.allCases)
    func statusFollowsRequiredProperties(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let session = fixture.session
        #expect(try session.status == .loggedOut)
        try session.set("tok", for: .token)
        try session.set("hello", for: .email)
        #expect(try session.status == .loggedOut)
        #expect(try session.missingRequiredProperties() == [.userID])
        try session.set("u-1", for: .userID)
        #expect(try session.status == .loggedIn)
        try session.remove(.token)
        #expect(try session.status == .loggedOut)
        #expect(try session.missingRequiredProperties() == [.token])
    }

    @Test("A new session reads the status from what is stored", arguments: TestStore.allCases)
    func statusAtStart(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("tok", for: .token)
        try fixture.session.set("u-1", for: .userID)
        #expect(try fixture.secondSession().status == .loggedIn)
    }

    @Test("With no required properties the session is logged out, whatever is stored", arguments: TestStore.allCases)
    func noRequiredProperties(store: TestStore) throws {
        let fixture = try SessionFixture(store, required: [])
        defer { fixture.tearDown() }
        for property in TestProperty.allCases {
            try fixture.session.set("value", for: property)
        }
        #expect(try fixture.session.status == .loggedOut)
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "requiredProperties", reason: "is empty, so the session is never logged in")
        ) {
            try fixture.session.markLoggedIn()
        }
    }

    @Test("Asking for logged in names the missing required property", arguments: TestStore.allCases)
    func markLoggedInNamesMissing(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("tok", for: .token)
        #expect(throws: KeyringError.invalidRecord(field: "userID", reason: "is required to log in and has no value")) {
            try fixture.session.markLoggedIn()
        }
        #expect(try fixture.session.status == .loggedOut)
        try fixture.session.set("u-1", for: .userID)
        try fixture.session.markLoggedIn()
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A required property that survives logout is refused", arguments: TestStore.allCases)
    func requiredCannotBePersisted(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let expected = KeyringError.invalidConfiguration(
            setting: "email", reason: "is required, so it cannot be persisted: logout would leave the user logged in")
        #expect(throws: expected) {
            try Session<TestProperty>(keyring: keyring, requiredProperties: [.token, .email], stateDirectory: folder.url)
        }
    }

    @Test("The default credentials are read from the keyring, not copied", arguments: TestStore.allCases)
    func defaultCredentials(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        #expect(try fixture.session.defaultCredentials() == nil)
        let first = try Credentials(username: "alice", password: "one", url: URL(string: "https://example.com")!)
        try fixture.keyring.setDefault(first)
        #expect(try fixture.session.defaultCredentials() == first)
        let second = try Credentials(username: "alice", password: "two", url: URL(string: "https://example.com")!)
        try fixture.keyring.setDefault(second)
        #expect(try fixture.session.defaultCredentials() == second)
    }
}
