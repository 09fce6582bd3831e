import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session logout")
struct SessionLogoutTests {
    @Test("Logout keeps exactly the persisted properties and removes the default credentials", arguments: TestStore.allCases)
    func logoutKeepsPersisted(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let session = fixture.session
        for property in TestProperty.allCases {
            try session.set("value of \(property.rawValue)", for: property)
        }
        let url = URL(string: "https://example.com")!
        try fixture.keyring.setDefault(try Credentials(username: "alice", password: "pw", url: url))
        try fixture.keyring.set(try Credentials(username: "bob", password: "pw", url: url), forKey: "work")
        let accountSecrets = try SecretStore(keyring: fixture.keyring, account: "alice")
        try accountSecrets.set("api key", forKey: "api")
        #expect(try session.status == .loggedIn)

        try session.logout()

        #expect(try session.status == .loggedOut)
        let reader = try fixture.secondSession()
        for property in TestProperty.allCases {
            let expected = property.isPersisted ? "value of \(property.rawValue)" : nil
            #expect(try reader.string(for: property) == expected, "\(property.rawValue)")
        }
        #expect(try fixture.keyring.defaultCredentials() == nil)
        #expect(try fixture.keyring.credentials(forKey: "work")?.username == "bob")
        #expect(try accountSecrets.string(forKey: "api") == "api key")
    }

    @Test("Logout with nothing stored succeeds and stays logged out", arguments: TestStore.allCases)
    func logoutWhenEmpty(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.logout()
        #expect(try fixture.session.status == .loggedOut)
    }
}
