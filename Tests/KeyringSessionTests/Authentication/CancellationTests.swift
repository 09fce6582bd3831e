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
    /// Sends `request` in a task of its own, cancels that task once the server has read `waitFor`
    /// `count` times, and expects `CancellationError`: a cancel that did not reach the wait
    /// would end the call at its 30 s deadline with `TransportError` instead. (It ended within
    /// 0.15 to 2.3 ms of the cancel in ten runs alone; under the whole suite on two cores an
    /// async test's continuation waited for seconds, so how soon is a measurement, not a test.)
    private func cancelSend(
        _ request: HTTPRequest, on client: AuthenticatedClient<TestProperty>, afterServerRead waitFor: String, count: Int,
        server: TestHTTPServer
    ) async throws {
        let running = Task { () -> Result<Void, any Error> in
            do {
                _ = try await client.send(request)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try await waitForRequests(waitFor, count: count, on: server)
        running.cancel()
        let outcome = await running.value
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    /// Waits until the server has read `count` requests of `what`: five minutes at most, a
    /// bound against a hang only (the requests are sent by tasks that share the test's threads).
    private func waitForRequests(_ what: String, count: Int = 1, on server: TestHTTPServer) async throws {
        let end = ContinuousClock.now + .seconds(300)
        while server.requests.filter({ $0 == what }).count < count {
            guard ContinuousClock.now < end else {
                Issue.record("the server never saw \(count) × \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("A task cancelled while the quiet login runs ends with CancellationError, and the login stops")
    func cancelDuringLogin() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        let before = try fixture.storedToken
        fixture.server.expireTokens()
        fixture.server.inject(.neverAnswer, at: "/login")
        let client = try fixture.makeClient(retryPolicy: .default, timeout: .seconds(30))

        try await cancelSend(
            fixture.request("/data"), on: client, afterServerRead: "POST /login", count: 2, server: fixture.server)

        #expect(await fixture.server.waitUntilIdle(), "the login's connection stayed open after the cancel")
        #expect(fixture.server.counts.loginAttempts == 2, "the login was tried again after the cancel")
        #expect(try fixture.storedToken == before)
        #expect(try fixture.session.status == .loggedIn)
    }

    @Test("A task cancelled while it waits for the server ends with CancellationError at once")
    func cancelDuringRequest() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.inject(.neverAnswer, at: "/data")
        let client = try fixture.makeClient(timeout: .seconds(30))

        try await cancelSend(fixture.request("/data"), on: client, afterServerRead: "GET /data", count: 1, server: fixture.server)

        #expect(await fixture.server.waitUntilIdle())
        #expect(fixture.server.requests.filter { $0 == "GET /data" }.count == 1)
    }

    @Test("A login another request still waits for goes on for it when one waiter is cancelled")
    func loginGoesOnForOthers() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.expireTokens()
        // The login is held until the cancel is seen: however slow the machine, it cannot end first.
        fixture.server.holdLogins()
        let client = try fixture.makeClient(timeout: .seconds(300))

        let cancelledOne = Task { try await client.send(fixture.request("/data")) }
        let patientOne = Task { try await client.send(fixture.request("/data")) }
        // Both were answered 401 and the login runs; a moment more for the second 401 to join it.
        try await waitForRequests("GET /data", count: 2, on: fixture.server)
        try await waitForRequests("POST /login", count: 2, on: fixture.server)
        try await Task.sleep(for: .milliseconds(100))
        cancelledOne.cancel()

        await #expect(throws: CancellationError.self) { try await cancelledOne.value }
        fixture.server.releaseLogins()
        let (response, _) = try await patientOne.value
        #expect(response.status == .ok)
        #expect(fixture.server.counts.loginAttempts == 2)
        #expect(try fixture.storedToken == fixture.server.issuedTokens.last)
    }
}
