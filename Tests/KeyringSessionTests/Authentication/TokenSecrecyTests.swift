import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Token secrecy")
struct TokenSecrecyTests {
    @Test("The renewed token is in the keyring and not in the state file", arguments: TestStore.allCases)
    func tokenStaysInKeyring(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        try await fixture.session.set("alice@example.com", for: .email)
        let client = try fixture.makeClient()
        fixture.server.expireTokens()

        _ = try await client.send(fixture.request("/data"))

        let token = try #require(fixture.server.issuedTokens.last)
        let keyringSecrets = try await fixture.keyring.secretKeys().compactMap { try fixture.keyring.secret(forKey: $0) }
        #expect(keyringSecrets.contains(Data(token.utf8)))
        // A fresh session reads it back from the keyring alone.
        #expect(try await fixture.base.secondSession().string(for: .token) == token)
        let stateFile = try #require(fixture.base.stateFileBytes)
        #expect(stateFile.range(of: Data("alice@example.com".utf8)) != nil)
        #expect(stateFile.range(of: Data(token.utf8)) == nil)
        #expect(stateFile.range(of: Data("token-".utf8)) == nil)
    }

    @Test("Log lines name method, path and status, and never a token, a password or a body")
    func logsHoldNoSecrets() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()

        _ = try await client.send(fixture.request("/data?session=in-query", method: .post), body: Data("secret body".utf8))
        _ = try await client.send(fixture.request("/fail"))
        fixture.server.changePassword(to: "changed")
        fixture.server.expireTokens()
        _ = try? await client.send(fixture.request("/data"))

        let log = fixture.log.text
        #expect(log.contains("method=POST"))
        #expect(log.contains("method=GET"))
        #expect(log.contains("path=/data"))
        #expect(log.contains("status=401"))
        #expect(log.contains("status=500"))
        #expect(log.contains("login refused"))
        #expect(fixture.server.issuedTokens.count == 2)
        for token in fixture.server.issuedTokens {
            #expect(!log.contains(token), "a token is in the log")
        }
        #expect(!log.contains("token-"))
        #expect(!log.contains("Bearer"))
        #expect(!log.contains(AuthFixture.password))
        #expect(!log.contains("secret body"))
        #expect(!log.contains("in-query"))
    }

    @Test("An access token's description and dump hide it")
    func tokenDescription() {
        let token = AccessToken("abc.def.ghi")
        #expect(!"\(token)".contains("abc"))
        #expect(!String(reflecting: token).contains("abc"))
        var dumped = ""
        dump(token, to: &dumped)
        dump([token], to: &dumped)
        #expect(!dumped.contains("abc"))
        #expect(dumped.contains("<11 bytes hidden>"))
    }
}
