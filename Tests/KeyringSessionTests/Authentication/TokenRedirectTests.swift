import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Token and redirects")
struct TokenRedirectTests {
    /// The transports the rule must hold on: the default one (libcurl), URLSession's, and
    /// URLSession's on a configuration the app made.
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case curl, fresh, appConfiguration
        var testDescription: String { rawValue }

        func make() -> any HTTPTransport {
            switch self {
            case .curl: CurlTransport(timeout: AuthFixture.hangBound)
            case .fresh: URLSessionTransport(timeout: AuthFixture.hangBound)
            case .appConfiguration: URLSessionTransport(configuration: .ephemeral, timeout: AuthFixture.hangBound)
            }
        }
    }

    @Test(
        "A redirect to another origin is returned as it is, and that origin never sees the token",
        arguments: [
            ("127.0.0.2", Transport.curl),  // another host
            ("127.0.0.1", Transport.curl),  // the same host on another port
            ("127.0.0.2", Transport.fresh),  // another host
            ("127.0.0.1", Transport.fresh),  // the same host on another port
            ("127.0.0.2", Transport.appConfiguration),
        ])
    func crossOriginRedirectKeepsToken(host: String, transport: Transport) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        let other = try TestHTTPServer(host: host)
        defer { other.stop() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: other.url("/landing"))
        let client = try fixture.makeClient(transport: transport.make())

        let (response, _) = try await client.send(fixture.request("/start"))

        #expect(response.status.code == 302)
        #expect(other.requests.isEmpty, "the redirect to \(host):\(other.port) was followed")
        #expect(other.authorizations(at: "/landing").isEmpty, "the token reached \(host):\(other.port)")
        #expect(fixture.server.authorizations(at: "/start").count == 1)
    }

    @Test("A redirect within the origin is followed, with the token", arguments: Transport.allCases)
    func sameOriginRedirectIsFollowed(transport: Transport) async throws {
        let fixture = try AuthFixture()
        defer { fixture.tearDown() }
        try await fixture.logIn()
        fixture.server.redirect("/start", to: fixture.server.url("/data"))
        let client = try fixture.makeClient(transport: transport.make())

        let (response, data) = try await client.send(fixture.request("/start"))

        #expect(response.status == .ok)
        #expect(String(decoding: data, as: UTF8.self).contains("the user's data"))
        let token = try #require(try fixture.storedToken)
        #expect(fixture.server.authorizations(at: "/data") == ["Bearer \(token)"])
    }

    @Test(
        "Origins: scheme, host and port; https to http is another origin",
        arguments: [
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
