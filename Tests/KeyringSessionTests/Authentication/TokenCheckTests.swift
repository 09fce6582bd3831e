import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import Testing

/// A token that cannot go into a request header is refused at the login: an error naming the
/// token property, nothing stored, the session kept.
@Suite("Tokens checked at login")
struct TokenCheckTests {
    @Test(
        "A token the server issues with CR LF, a space, non-ASCII or 8 KiB + 1 bytes is refused and nothing is stored",
        arguments: ["abc\r\nX-Injected: yes", "abc def", "abcdé", String(repeating: "a", count: AccessToken.maxLength + 1)])
    func badTokenIsRefused(token: String) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        fixture.server.inject(.issueToken(token), at: "/login")
        let client = try fixture.makeClient()

        do {
            _ = try await client.send(fixture.request("/data"))
            Issue.record("a token a header cannot carry was accepted")
        } catch let error as KeyringError {
            #expect(error.code == .invalidRecord)
            #expect(error.field == "token")
            #expect(!error.description.contains("abc"), "the error quotes the token")
        }

        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
        #expect(try await fixture.keyring.defaultCredentials() != nil)
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(!fixture.log.text.contains("abc"), "the log quotes the token")
    }

    @Test("A 1 MiB token from the server is refused by the login's answer limit; nothing is stored")
    func megabyteTokenFromServer() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        fixture.server.inject(.issueToken(String(repeating: "a", count: 1 << 20)), at: "/login")
        let client = try fixture.makeClient()

        let error = await #expect(throws: TransportError.self) { try await client.send(fixture.request("/data")) }

        #expect(error?.kind == .answerTooLarge)
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A 1 MiB token from the app's login is refused by its length; nothing is stored")
    func megabyteTokenFromLogin() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        let client = try fixture.makeClient(login: { _ in AccessToken(String(repeating: "a", count: 1 << 20)) })

        await #expect(throws: KeyringError.self) { try await client.send(fixture.request("/data")) }
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
        // The login failed, so the request was not sent again.
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 1)
    }
}
