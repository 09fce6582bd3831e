import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import KeyringTestKit
import KeyringTestSupport
import Logging

/// A `TestHTTPServer`, a session on a fresh keyring, and the app's login closure
/// that talks to the server; `tearDown()` stops the server and removes the rest.
struct AuthFixture {
    static let username = "alice"
    static let password = "correct horse battery staple"
    /// The transports' and clients' bound where a test expects answers: a hang bound, not a
    /// clock the test races. Twenty requests at once beside the whole suite on two busy cores
    /// once took longer than 10 s; tests about timeouts pass bounds of their own.
    static let hangBound = Duration.seconds(60)

    let server: TestHTTPServer
    let base: SessionFixture
    /// What the clients made by `makeClient` logged.
    let log = CapturedLog()

    var session: Session<TestProperty> { base.session }
    var keyring: Keyring { base.keyring }

    init(_ store: TestStore = .memory) throws {
        server = try TestHTTPServer(username: Self.username, password: Self.password)
        base = try SessionFixture(store)
    }

    func tearDown() {
        server.stop()
        base.tearDown()
    }

    /// A client over the session, logging into `log`.
    func makeClient(
        transport: any HTTPTransport = CurlTransport(timeout: AuthFixture.hangBound),
        retryPolicy: RetryPolicy = RetryPolicy(initialDelay: .milliseconds(50)),
        tokenAttachment: TokenAttachment = .bearer,
        timeout: Duration = AuthFixture.hangBound,
        isLoginRefusal: @escaping @Sendable (any Error) -> Bool = AuthenticationError.isLoginRefusal,
        login: (@Sendable (Credentials) async throws -> AccessToken)? = nil
    ) throws -> AuthenticatedClient<TestProperty> {
        try AuthenticatedClient(
            session: session,
            tokenProperty: .token,
            transport: transport,
            tokenAttachment: tokenAttachment,
            retryPolicy: retryPolicy,
            timeout: timeout,
            isLoginRefusal: isLoginRefusal,
            logger: log.logger,
            login: login ?? Self.serverLogin
        )
    }

    /// The app's login: `POST /login` at the credentials' URL, with the login's answer limit, as the docs' own.
    @Sendable static func serverLogin(_ credentials: Credentials) async throws -> AccessToken {
        var request = HTTPRequest(method: .post, url: credentials.url.appending(path: "login"))
        request.headerFields[.contentType] = "application/json"
        let body = try JSONEncoder().encode(["username": credentials.username, "password": credentials.password])
        let transport = CurlTransport(timeout: hangBound, answerLimit: CurlTransport.loginAnswerLimit)
        let (response, data) = try await transport.send(request, body: body)
        try AuthenticationError.checkLoginResponse(response)
        guard response.status == .ok else { throw LoginServerError(status: response.status.code) }
        return AccessToken(try JSONDecoder().decode([String: String].self, from: data)["token"] ?? "")
    }

    /// Logs in as the app does at its login screen: credentials and token stored, the user id saved, status logged in.
    func logIn() async throws {
        let credentials = try Credentials(username: Self.username, password: Self.password, url: server.baseURL)
        let token = try await Self.serverLogin(credentials)
        try await keyring.setDefault(credentials)
        try await session.set(token.value, for: .token)
        try await session.set("user-42", for: .userID)
        try await session.markLoggedIn()
    }

    func request(_ path: String, method: HTTPRequest.Method = .get) -> HTTPRequest {
        HTTPRequest(method: method, url: server.url(path))
    }

    var storedToken: String? {
        get throws { try session.string(for: .token) }
    }
}

/// The login server failed in a way that is not a refusal.
struct LoginServerError: Error, Equatable {
    let status: Int
}
