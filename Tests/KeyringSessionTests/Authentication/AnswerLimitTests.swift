import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import Testing

/// Huge and endless answers are refused while they arrive, at the transport's limit, to a
/// request and to the quiet login alike; nothing is retried and the session is kept.
@Suite("Answer limit")
struct AnswerLimitTests {
    /// The answers too long to hold: 1 GiB said up front, 1 GiB ended by closing, and no end at all.
    static let hugeAnswers: [TestHTTPServer.Fault] = [
        .hugeBody(bytes: 1 << 30, declared: true), .hugeBody(bytes: 1 << 30, declared: false), .endlessChunkedBody,
    ]

    @Test("A huge or endless answer to a GET is refused at 16 MiB, once, naming the limit", arguments: hugeAnswers)
    func hugeAnswerIsRefused(fault: TestHTTPServer.Fault) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.inject(fault, at: "/data")
        let client = try fixture.makeClient(transport: CurlTransport(timeout: .seconds(20)), timeout: .seconds(30))

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data"))
        }

        #expect(error?.kind == .answerTooLarge)
        #expect(error?.reason.contains("\(16 << 20) bytes") == true)
        #expect(await fixture.server.waitUntilIdle(timeout: .seconds(20)), "the server still sends: the client kept reading")
        // What the client read plus what the two sockets' buffers hold: far from the 1 GiB offered.
        #expect(fixture.server.bodyBytesSent(at: "/data") < 256 << 20)
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 1)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A huge or endless answer to the quiet login is refused at 64 KiB; nothing is stored", arguments: hugeAnswers)
    func hugeLoginAnswerIsRefused(fault: TestHTTPServer.Fault) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        fixture.server.inject(fault, at: "/login")
        let client = try fixture.makeClient(timeout: .seconds(30))

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data"))
        }

        #expect(error?.kind == .answerTooLarge)
        #expect(error?.reason.contains("\(64 << 10) bytes") == true)
        #expect(await fixture.server.waitUntilIdle(timeout: .seconds(20)))
        #expect(fixture.server.counts.loginAttempts == 2, "a refused answer was asked for again")
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
        #expect(try await fixture.keyring.defaultCredentials() != nil)
    }

    @Test("An answer within the limit comes back whole")
    func answerWithinLimit() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.inject(.hugeBody(bytes: 100_000, declared: false), at: "/data")

        let (response, body) = try await CurlTransport(answerLimit: 100_000)
            .send(HTTPRequest(method: .get, url: server.url("/data")), body: nil)

        #expect(response.status == .ok)
        #expect(body.count == 100_000)
    }
}
