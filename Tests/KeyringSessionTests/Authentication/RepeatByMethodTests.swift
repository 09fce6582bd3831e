import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import Testing

/// What is sent again after no whole answer came: idempotent methods by default, a POST or a
/// PATCH only on the caller's word; an empty reply counts as a broken connection.
@Suite("Repeating follows the method")
struct RepeatByMethodTests {
    @Test(
        "A request answered too late is sent again only when its method is idempotent or the caller says so",
        arguments: [
            (HTTPRequest.Method.post, nil, 1), (.patch, nil, 1), (.get, nil, 3), (.put, nil, 3), (.delete, nil, 3),
            (.post, true, 3), (.get, false, 1),
        ] as [(HTTPRequest.Method, Bool?, Int)])
    func lateAnswer(method: HTTPRequest.Method, safeToRepeat: Bool?, handled: Int) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        // The server carries each request out, and answers after the transport gave up on it.
        fixture.server.inject(.answerAfter(.seconds(1)), at: "/data")
        let client = try fixture.makeClient(
            transport: CurlTransport(timeout: .milliseconds(200)),
            retryPolicy: RetryPolicy(initialDelay: .milliseconds(10))
        )

        let error = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data", method: method), body: Data("pay 10".utf8), safeToRepeat: safeToRepeat)
        }

        #expect(error?.kind == .timedOut)
        #expect(await fixture.server.waitUntilIdle())
        #expect(fixture.server.requests.filter { $0 == "\(method.rawValue) /data" }.count == handled)
    }

    @Test("A connection closed without an answer is a broken connection, retried for a GET and not for a POST")
    func closeWithoutAnswer() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.inject(.closeWithoutAnswer, at: "/data")
        let client = try fixture.makeClient(retryPolicy: RetryPolicy(initialDelay: .milliseconds(10)))

        let get = await #expect(throws: TransportError.self) { try await client.send(fixture.request("/data")) }
        let post = await #expect(throws: TransportError.self) {
            try await client.send(fixture.request("/data", method: .post), body: Data("{}".utf8))
        }

        #expect(get?.kind == .connectionLost)
        #expect(post?.kind == .connectionLost)
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 3)
        #expect(fixture.server.requests.filter { $0 == "POST /data" }.count == 1)
    }

    @Test("The idempotent methods are RFC 9110's")
    func idempotentMethods() {
        let repeated: [HTTPRequest.Method] = [.get, .head, .options, .trace, .put, .delete]
        let once: [HTTPRequest.Method] = [.post, .patch, .connect, HTTPRequest.Method("PURGE")!]
        #expect(repeated.allSatisfy(RetryPolicy.isIdempotent))
        #expect(!once.contains(where: RetryPolicy.isIdempotent))
    }
}
