import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Quiet re-authentication")
struct ReauthenticationTests {
    @Test("An expired token leads to one quiet login and a successful retry", arguments: TestStore.allCases)
    func expiredTokenIsRenewed(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        let before = try fixture.storedToken
        fixture.server.expireTokens()

        let (response, body) = try await client.send(fixture.request("/data"))

        #expect(response.status == .ok)
        #expect(String(decoding: body, as: UTF8.self).contains("the user's data"))
        #expect(fixture.server.counts.logins == 2)
        #expect(fixture.server.requests == ["POST /login", "GET /data", "POST /login", "GET /data"])
        let after = try fixture.storedToken
        #expect(after != before)
        #expect(after == fixture.server.issuedTokens.last)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A valid token is sent without a login")
    func validTokenNeedsNoLogin() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()

        let (response, _) = try await client.send(fixture.request("/data"))

        #expect(response.status == .ok)
        #expect(fixture.server.counts.logins == 1)
    }

    @Test("A 500 is passed through without a login and the session stays", arguments: TestStore.allCases)
    func serverErrorPassesThrough(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        let before = try fixture.storedToken

        let (response, body) = try await client.send(fixture.request("/fail"))

        #expect(response.status == .internalServerError)
        #expect(String(decoding: body, as: UTF8.self).contains("broken"))
        #expect(fixture.server.counts.loginAttempts == 1)
        #expect(fixture.server.requests.filter { $0 == "GET /fail" }.count == 1)
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A login that fails for another reason passes its error through and keeps the session")
    func brokenLoginPassesThrough() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()
        fixture.server.setFailLogins(true)

        await #expect(throws: LoginServerError(status: 500)) {
            try await client.send(fixture.request("/data"))
        }

        #expect(try fixture.session.status == .loggedIn)
        #expect(try await fixture.keyring.defaultCredentials()?.username == AuthFixture.username)
        fixture.server.setFailLogins(false)
        let (response, _) = try await client.send(fixture.request("/data"))
        #expect(response.status == .ok)
    }

    @Test("A request with no stored token gets one from a quiet login")
    func missingTokenIsFetched() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.session.remove(.token)
        let client = try fixture.makeClient()

        let (response, _) = try await client.send(fixture.request("/data"))

        #expect(response.status == .ok)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
    }

    @Test("The token goes into the header the app chose")
    func customHeader() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let bearerless = try fixture.makeClient(tokenAttachment: .header(HTTPField.Name("X-Auth-Token")!))
        let nowhere = try fixture.makeClient(tokenAttachment: .custom { _, _ in })

        let (accepted, _) = try await bearerless.send(fixture.request("/data"))
        let (refused, _) = try await nowhere.send(fixture.request("/data"))

        #expect(accepted.status == .ok)
        // Without the token even a fresh login cannot help: the second 401 is returned, not looped on.
        #expect(refused.status == .unauthorized)
        #expect(fixture.server.counts.logins == 2)
    }

    @Test("A token property that is not secure is refused")
    func plainTokenPropertyIsRefused() throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        #expect(throws: KeyringError.self) {
            try AuthenticatedClient(session: fixture.session, tokenProperty: .userID) { _ in AccessToken("unused") }
        }
        do {
            _ = try AuthenticatedClient(session: fixture.session, tokenProperty: .draft) { _ in AccessToken("unused") }
            Issue.record("a plain token property was accepted")
        } catch let error as KeyringError where error.code == .invalidConfiguration {
            #expect(error.setting == "draft")
        }
    }
}
