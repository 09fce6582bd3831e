import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session validation at app start")
struct SessionValidationTests {
    @Test("A valid token is reported valid, without a login")
    func validToken() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()

        #expect(try await client.validateSession(statusRequest: fixture.request("/status")) == .valid)
        #expect(fixture.server.counts.loginAttempts == 1)
    }

    @Test("An expired token is renewed quietly", arguments: TestStore.allCases)
    func expiredToken(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()

        #expect(try await client.validateSession(statusRequest: fixture.request("/status")) == .renewed)
        #expect(fixture.server.counts.logins == 2)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("No token but stored credentials: a quiet login")
    func missingToken() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.session.remove(.token)
        let client = try fixture.makeClient()

        #expect(try await client.validateSession(statusRequest: fixture.request("/status")) == .renewed)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("An expired token and no stored credentials: logged out", arguments: TestStore.allCases)
    func noCredentials(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.keyring.removeDefault()
        try await fixture.session.set(true, for: .hasSeenOnboarding)
        let client = try fixture.makeClient()
        fixture.server.expireTokens()

        #expect(try await client.validateSession(statusRequest: fixture.request("/status")) == .loggedOut(.noStoredCredentials))
        #expect(try fixture.session.status == .loggedOut)
        #expect(try fixture.storedToken == nil)
        #expect(try await fixture.session.bool(for: .hasSeenOnboarding) == true)
    }

    @Test("Refused credentials at app start: logged out")
    func refusedCredentials() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()
        fixture.server.changePassword(to: "changed")

        #expect(try await client.validateSession(statusRequest: fixture.request("/status")) == .loggedOut(.credentialsRefused))
        #expect(try fixture.session.status == .loggedOut)
    }

    @Test("A status endpoint that fails is an error, and the session is left as it was")
    func failingEndpoint() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        let before = try fixture.storedToken

        await #expect(throws: AuthenticationError.unexpectedStatus(.internalServerError)) {
            try await client.validateSession(statusRequest: fixture.request("/fail"))
        }
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
        #expect(fixture.server.counts.loginAttempts == 1)
    }
}
