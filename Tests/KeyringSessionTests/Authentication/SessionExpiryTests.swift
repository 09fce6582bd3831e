import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session expiry")
struct SessionExpiryTests {
    @Test("Changed credentials: logout, the session-expired error, persisted properties kept", arguments: TestStore.allCases)
    func changedCredentialsLogOut(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.session.set("alice@example.com", for: .email)
        try await fixture.session.set(true, for: .hasSeenOnboarding)
        try await fixture.session.set("device key", for: .deviceKey)
        try await fixture.session.set("unsent draft", for: .draft)
        let client = try fixture.makeClient()
        fixture.server.expireTokens()
        fixture.server.changePassword(to: "changed on another device")

        await #expect(throws: AuthenticationError.sessionExpired(.credentialsRefused)) {
            try await client.send(fixture.request("/data"))
        }

        #expect(try fixture.session.status == .loggedOut)
        #expect(try fixture.storedToken == nil)
        #expect(try await fixture.session.string(for: .userID) == nil)
        #expect(try await fixture.session.string(for: .draft) == nil)
        #expect(try await fixture.keyring.defaultCredentials() == nil)
        #expect(try await fixture.session.string(for: .email) == "alice@example.com")
        #expect(try await fixture.session.bool(for: .hasSeenOnboarding) == true)
        #expect(try await fixture.session.string(for: .deviceKey) == "device key")
        // The refused login was tried once, never retried.
        #expect(fixture.server.counts.loginAttempts == 2)
    }

    enum AppLoginError: Error, CaseIterable { case badCredentials, serverDown }

    @Test(
        "The app's own bad-credentials error logs out; its other errors pass through and keep the session",
        arguments: AppLoginError.allCases)
    func appLoginErrors(thrown: AppLoginError) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient(
            isLoginRefusal: { ($0 as? AppLoginError) == .badCredentials },
            login: { _ in throw thrown }
        )
        fixture.server.expireTokens()

        let error = await #expect(throws: (any Error).self) {
            try await client.send(fixture.request("/data"))
        }

        let refused = thrown == .badCredentials
        if refused {
            #expect(error as? AuthenticationError == .sessionExpired(.credentialsRefused))
        } else {
            #expect(error as? AppLoginError == thrown)
        }
        #expect(try fixture.session.status == (refused ? .loggedOut : .loggedIn))
        #expect(try await (fixture.keyring.defaultCredentials() == nil) == refused)
    }

    @Test("No stored credentials: logout and the session-expired error", arguments: TestStore.allCases)
    func noCredentialsLogOut(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.keyring.removeDefault()
        try await fixture.session.set("alice@example.com", for: .email)
        let client = try fixture.makeClient()
        fixture.server.expireTokens()

        await #expect(throws: AuthenticationError.sessionExpired(.noStoredCredentials)) {
            try await client.send(fixture.request("/data"))
        }

        #expect(try fixture.session.status == .loggedOut)
        #expect(try fixture.storedToken == nil)
        #expect(try await fixture.session.string(for: .email) == "alice@example.com")
        #expect(fixture.server.counts.loginAttempts == 1)
    }
}
