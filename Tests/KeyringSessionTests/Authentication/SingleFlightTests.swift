import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Single-flight login")
struct SingleFlightTests {
    @Test("20 concurrent requests after expiry cause exactly one login", arguments: TestStore.allCases)
    func concurrentRequestsShareOneLogin(store: TestStore) async throws {
        let fixture = try AuthFixture(store)
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()
        // A slow login keeps the first one running while the other 401s arrive.
        fixture.server.setLoginDelay(.milliseconds(300))

        let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for _ in 0..<20 {
                group.addTask { try await client.send(fixture.request("/data")).0.status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses.count == 20)
        #expect(statuses.allSatisfy { $0 == .ok })
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(fixture.server.counts.logins == 2)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
    }

    @Test("A 401 for a token already replaced retries with the new one, without a login")
    func oldTokenRetriesWithNewOne() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.expireTokens()
        // Another window (a second Session on the same service) renews the token while
        // this client's request, sent with the old token, is on its way back with a 401.
        let other = try fixture.base.secondSession()
        let credentials = try #require(try await fixture.keyring.defaultCredentials())
        let transport = CountingTransport(afterSend: { number in
            guard number == 1 else { return }
            try await other.set(try await AuthFixture.serverLogin(credentials).value, for: .token)
        })
        let client = try fixture.makeClient(transport: transport)

        let (response, _) = try await client.send(fixture.request("/data"))

        #expect(response.status == .ok)
        #expect(transport.sends == 2)
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
    }

    @Test("20 concurrent requests with refused credentials: one login attempt, all get session expired")
    func concurrentRequestsShareOneRefusal() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient()
        fixture.server.expireTokens()
        fixture.server.changePassword(to: "changed on another device")
        fixture.server.setLoginDelay(.milliseconds(300))

        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await client.send(fixture.request("/data"))
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(errors.count == 20)
        #expect(errors.allSatisfy { ($0 as? AuthenticationError) == .sessionExpired(.credentialsRefused) })
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(try fixture.session.status == .loggedOut)
    }
}
