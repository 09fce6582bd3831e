import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KeyringSession
import Testing

@Suite("Token and redirects")
struct TokenRedirectTests {
    @Test("A redirect to another host is returned as it is, and that host never sees the token")
    func crossOriginRedirectKeepsToken() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        let other = try TestHTTPServer(host: "127.0.0.2")
        defer { other.stop() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: other.url("/landing"))
        let client = try fixture.makeClient()

        let (response, _) = try await client.send(fixture.request("/start"))

        #expect(response.status.code == 302)
        #expect(other.requests.isEmpty, "the redirect to 127.0.0.2 was followed")
        #expect(other.authorizations(at: "/landing").isEmpty, "the token reached 127.0.0.2")
        #expect(fixture.server.authorizations(at: "/start").count == 1)
    }

    @Test("A redirect to another port of the same host is another origin, and is not followed")
    func otherPortIsAnotherOrigin() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        let other = try TestHTTPServer(host: "127.0.0.1")
        defer { other.stop() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: other.url("/landing"))
        let client = try fixture.makeClient()

        let (response, _) = try await client.send(fixture.request("/start"))

        #expect(response.status.code == 302)
        #expect(other.authorizations(at: "/landing").isEmpty)
    }

    @Test("A redirect within the origin is followed, with the token")
    func sameOriginRedirectIsFollowed() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: fixture.server.url("/data"))
        let client = try fixture.makeClient()

        let (response, data) = try await client.send(fixture.request("/start"))

        #expect(response.status == .ok)
        #expect(String(decoding: data, as: UTF8.self).contains("the user's data"))
        let token = try #require(try fixture.storedToken)
        #expect(fixture.server.authorizations(at: "/data") == ["Bearer \(token)"])
    }

    @Test("Origins: scheme, host and port; https to http is another origin", arguments: [
        ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?x=1", true),
        ("http://Example.com/a", "http://example.com:80/b", true),
        ("https://example.com/a", "https://example.com:443/b", true),
        ("https://example.com/a", "http://example.com/a", false),
        ("https://example.com:8443/a", "http://example.com:8443/a", false),
        ("http://127.0.0.1:8080/a", "http://127.0.0.2:8080/a", false),
        ("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a", false),
        ("http://example.com/a", "http://example.com.evil.test/a", false),
    ])
    func origins(from: String, to: String, same: Bool) throws {
        let a = try #require(URL(string: from))
        let b = try #require(URL(string: to))
        #expect(SameOriginRedirects.isSameOrigin(a, b) == same)
    }
}

extension TokenRedirectTests {
    @Test("On a session the app configured, a redirect to another host is not followed either")
    func appSessionKeepsToken() async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        let other = try TestHTTPServer(host: "127.0.0.2")
        defer { other.stop() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: other.url("/landing"))
        fixture.server.redirect("/inside", to: fixture.server.url("/data"))
        let client = try fixture.makeClient(transport: URLSessionTransport(session: URLSession(configuration: .ephemeral)))

        let (away, _) = try await client.send(fixture.request("/start"))
        let (inside, _) = try await client.send(fixture.request("/inside"))

        #expect(away.status.code == 302)
        #expect(other.authorizations(at: "/landing").isEmpty, "the token reached 127.0.0.2")
        #expect(inside.status == .ok)
        #expect(fixture.server.authorizations(at: "/data").count == 1)
    }
}
