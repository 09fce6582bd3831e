import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import Testing

@Suite("Transport retries")
struct TransportRetryTests {
    @Test("A server that goes away and comes back before the retry answers the retry")
    func serverComesBack() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let server = fixture.server
        let port = server.port
        // The server listens again as the second attempt starts: the first is refused and the
        // retry answered, whatever a loaded machine does to the waits between them.
        let transport = CountingTransport(beforeSend: { number in
            if number == 2 { try server.start(port: port) }
        })
        let client = try fixture.makeClient(
            transport: transport,
            retryPolicy: RetryPolicy(maxRetries: 4, initialDelay: .milliseconds(100))
        )
        server.stop()

        let (response, _) = try await client.send(fixture.request("/data"))

        #expect(response.status == .ok)
        #expect(transport.sends == 2)
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 1)
        #expect(fixture.server.counts.logins == 1)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("Without a server, a request is sent 1 + 2 times by default and the transport error comes through")
    func retriesRunOut() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let transport = CountingTransport()
        let client = try fixture.makeClient(transport: transport, retryPolicy: RetryPolicy(initialDelay: .milliseconds(20)))
        fixture.server.stop()

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data"))
        }
        #expect(error?.kind == .cannotConnect)

        #expect(transport.sends == 3)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A request marked not safe to repeat is sent once")
    func unsafeRequestIsNotRepeated() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let transport = CountingTransport()
        let client = try fixture.makeClient(transport: transport)
        fixture.server.stop()

        await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data", method: .post), body: Data("pay 10".utf8), safeToRepeat: false)
        }
        #expect(transport.sends == 1)
    }

    @Test("A request that outlasts the transport's timeout is a timed-out transport error, retried as the policy says")
    func slowAnswerTimesOut() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let transport = CountingTransport(timeout: .milliseconds(300))
        let client = try fixture.makeClient(
            transport: transport,
            retryPolicy: RetryPolicy(maxRetries: 1, initialDelay: .milliseconds(10))
        )

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/slow"))
        }
        #expect(error?.kind == .timedOut)
        #expect(transport.sends == 2)
    }

    @Test("A request that outlasts the send's deadline ends at it, however many retries the policy would allow")
    func deadlineEndsRetries() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let transport = CountingTransport()
        let client = try fixture.makeClient(
            transport: transport,
            retryPolicy: RetryPolicy(maxRetries: 5, initialDelay: .milliseconds(10)),
            timeout: .milliseconds(300)
        )

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/slow"))
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("deadline") == true)
        #expect(transport.sends == 1)
    }

    @Test("A login that outlasts the timeout passes the timeout through and keeps the session")
    func slowLoginKeepsSession() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let client = try fixture.makeClient(retryPolicy: .none, timeout: .milliseconds(300))
        fixture.server.expireTokens()
        // Held until the send has ended: the login outlasts the timeout however slow the machine.
        fixture.server.holdLogins()

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data"))
        }
        fixture.server.releaseLogins()
        #expect(error?.kind == .timedOut)
        #expect(try fixture.session.status == .loggedIn)
        #expect(try await fixture.keyring.defaultCredentials() != nil)
    }

    @Test(
        "The wait before each retry grows and stops at the limit",
        arguments: [
            (1, 100), (2, 200), (3, 400), (4, 500), (9, 500),
        ])
    func backOff(retry: Int, milliseconds: Int) {
        let policy = RetryPolicy(initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .milliseconds(500))
        #expect(policy.delay(beforeRetry: retry) == .milliseconds(milliseconds))
    }

    @Test(
        "Only transient transport errors are retried",
        arguments: [
            (TransportError(.cannotConnect, reason: "refused"), true),
            (TransportError(.timedOut, reason: "slow"), true),
            (TransportError(.connectionLost, reason: "reset"), true),
            (TransportError(.answerTooLarge, reason: "1 GiB"), false),
            (TransportError(.other, reason: "bad URL"), false),
        ])
    func transientErrors(error: TransportError, retried: Bool) {
        #expect(RetryPolicy.isTransient(error) == retried)
        #expect(RetryPolicy.isTransient(AuthenticationError.loginRefused(status: .unauthorized)) == false)
    }
}
