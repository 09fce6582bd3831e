import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import Testing

/// A cancelled task's `send` ends at once, whatever it waits for, and its quiet login goes on
/// only while another request still waits for it.
@Suite("Cancellation reaches the login")
struct CancellationTests {
    /// Starts `send` in a task of its own; the task's value is how `send` ended and when.
    private func sending(_ send: @escaping @Sendable () async throws -> Void) -> Task<(Result<Void, any Error>, ContinuousClock.Instant), Never> {
        Task {
            do {
                try await send()
                return (.success(()), .now)
            } catch {
                return (.failure(error), .now)
            }
        }
    }

    /// Waits (at most 10 s) until the server has read `count` requests of `what`.
    private func waitForRequests(_ what: String, count: Int = 1, on server: TestHTTPServer) async throws {
        let end = ContinuousClock.now + .seconds(10)
        while server.requests.filter({ $0 == what }).count < count {
            guard ContinuousClock.now < end else {
                Issue.record("the server never saw \(count) × \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("A task cancelled while the quiet login runs ends with CancellationError within 100 ms, and the login stops")
    func cancelDuringLogin() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        fixture.server.inject(.neverAnswer, at: "/login")
        let client = try fixture.makeClient(retryPolicy: .default, timeout: .seconds(30))

        let running = sending { _ = try await client.send(fixture.request("/data")) }
        try await waitForRequests("POST /login", count: 2, on: fixture.server)
        let cancelled = ContinuousClock.now
        running.cancel()
        let (outcome, ended) = await running.value
        let took = ended - cancelled

        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(took < .milliseconds(100), "the cancelled send ended \(took) after the cancel")
        #expect(await fixture.server.waitUntilIdle(), "the login's connection stayed open after the cancel")
        #expect(fixture.server.counts.loginAttempts == 2, "the login was tried again after the cancel")
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A task cancelled while it waits for the server ends with CancellationError within 100 ms")
    func cancelDuringRequest() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.inject(.neverAnswer, at: "/data")
        let client = try fixture.makeClient(timeout: .seconds(30))

        let running = sending { _ = try await client.send(fixture.request("/data")) }
        try await waitForRequests("GET /data", on: fixture.server)
        let cancelled = ContinuousClock.now
        running.cancel()
        let (outcome, ended) = await running.value
        let took = ended - cancelled

        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(took < .milliseconds(100), "the cancelled send ended \(took) after the cancel")
        #expect(await fixture.server.waitUntilIdle())
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 1)
    }

    @Test("A login another request still waits for goes on for it when one waiter is cancelled")
    func loginGoesOnForOthers() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.expireTokens()
        fixture.server.setLoginDelay(.milliseconds(700))
        let client = try fixture.makeClient(timeout: .seconds(30))

        let cancelledOne = Task { try await client.send(fixture.request("/data")) }
        let patientOne = Task { try await client.send(fixture.request("/data")) }
        // Both were answered 401 and the login runs (700 ms): both wait for it well before it ends.
        try await waitForRequests("GET /data", count: 2, on: fixture.server)
        try await waitForRequests("POST /login", count: 2, on: fixture.server)
        try await Task.sleep(for: .milliseconds(100))
        cancelledOne.cancel()

        await #expect(throws: CancellationError.self) { try await cancelledOne.value }
        let (response, _) = try await patientOne.value
        #expect(response.status == .ok)
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
    }
}
