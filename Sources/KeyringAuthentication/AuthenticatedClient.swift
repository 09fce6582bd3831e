public import Foundation
public import HTTPTypes
public import Logging

/// Sends an app's requests with the session's token, and logs back in quietly when the token expires.
///
/// The token lives in a secure `Session` property; the credentials to log in
/// again are the keyring's default credentials. When a request is answered
/// 401, the client logs in with them, saves the new token, and sends the
/// request once more. Only when the login itself is refused (or no
/// credentials are stored) does it log the user out and throw
/// `AuthenticationError.sessionExpired`; every other failure reaches the
/// caller unchanged and the session stays as it was.
///
/// ```swift
/// let client = try AuthenticatedClient(session: session, tokenProperty: .token) { credentials in
///     var login = HTTPRequest(method: .post, url: credentials.url.appending(path: "login"))
///     login.headerFields[.contentType] = "application/json"
///     let body = try JSONEncoder().encode(["username": credentials.username, "password": credentials.password])
///     let (response, data) = try await URLSessionTransport().send(login, body: body)
///     try AuthenticationError.checkLoginResponse(response)      // 401/403: refused
///     return AccessToken(try JSONDecoder().decode(LoginReply.self, from: data).token)
/// }
/// let (response, data) = try await client.send(HTTPRequest(method: .get, url: api.appending(path: "inbox")))
/// ```
///
/// When many requests are answered 401 at once, one login runs and all of
/// them wait for it and retry with its token. A request answered 401 for a
/// token that was already replaced retries with the new one, without a login.
///
/// Requests that get no answer (connection refused, timeout) are sent again
/// as `retryPolicy` says, unless the caller marks them not safe to repeat.
/// The client logs each request at debug level (method, path without query,
/// status, milliseconds), never a header value, a token or a body.
///
/// Session reads and writes go through the session's async face: the actor is
/// suspended while the keyring works on the library's own threads, so other
/// requests go on meanwhile and no cooperative thread waits on D-Bus or a file.
public actor AuthenticatedClient<Property: SessionProperty> {
    /// The session whose token the client attaches and renews.
    public nonisolated let session: Session<Property>
    /// The secure property that holds the token.
    public nonisolated let tokenProperty: Property

    private let transport: any HTTPTransport
    private let tokenAttachment: TokenAttachment
    private let retryPolicy: RetryPolicy
    private let timeout: Duration
    private let isLoginRefusal: @Sendable (any Error) -> Bool
    private let login: @Sendable (Credentials) async throws -> AccessToken
    private let logger: Logger
    /// The login every request answered 401 waits for, while one runs.
    private var loginInFlight: Task<AccessToken, any Error>?
    /// How many logins have finished, and how the last one ended: a request that
    /// read the token while a login ran and ended takes that login's outcome
    /// rather than starting another.
    private var loginsFinished = 0
    private var lastLogin: Result<AccessToken, any Error>?

    /// Makes a client over `session`.
    /// - Parameters:
    ///   - session: the session; its keyring's default credentials are used to log in again.
    ///   - tokenProperty: the property that holds the token; it must be secure, so the token stays in the keyring.
    ///   - transport: how requests are sent; ``URLSessionTransport`` by default.
    ///   - tokenAttachment: how the token goes into a request; `Authorization: Bearer <token>` by default.
    ///   - retryPolicy: how requests (and logins) that got no answer are retried; two retries by default.
    ///   - timeout: the longest one attempt of a request or a login may take, whatever the transport does.
    ///   - isLoginRefusal: which errors of `login` mean "these credentials are refused";
    ///     by default `AuthenticationError.loginRefused`. Give your own to accept your app's "bad credentials" error.
    ///   - logger: where requests are logged, at debug level; `nil` means the session's keyring's `logger`.
    ///   - login: logs in with the stored credentials and returns the new token. Throw
    ///     `AuthenticationError.loginRefused` (see `AuthenticationError.checkLoginResponse`) when refused.
    /// - Throws: `KeyringError.invalidConfiguration` naming `tokenProperty` when it is not secure.
    public init(
        session: Session<Property>,
        tokenProperty: Property,
        transport: any HTTPTransport = URLSessionTransport(),
        tokenAttachment: TokenAttachment = .bearer,
        retryPolicy: RetryPolicy = .default,
        timeout: Duration = .seconds(30),
        isLoginRefusal: @escaping @Sendable (any Error) -> Bool = AuthenticationError.isLoginRefusal,
        logger: Logger? = nil,
        login: @escaping @Sendable (Credentials) async throws -> AccessToken
    ) throws {
        guard tokenProperty.isSecure else {
            throw KeyringError.invalidConfiguration(
                setting: tokenProperty.rawValue,
                reason: "holds the token, so it must be secure; otherwise the token would be written to the plain state file"
            )
        }
        self.session = session
        self.tokenProperty = tokenProperty
        self.transport = transport
        self.tokenAttachment = tokenAttachment
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.isLoginRefusal = isLoginRefusal
        self.logger = logger ?? session.keyring.logger
        self.login = login
    }

    // MARK: Requests

    /// Sends `request` with the current token; on 401 logs in again and sends it once more.
    ///
    /// Every answer is returned, whatever its status (a 500 too); only a 401 leads to a login,
    /// and a second 401 after a fresh login is returned as it is.
    /// - Parameters:
    ///   - request: the request; the token is attached to a copy of it.
    ///   - body: the request body, sent again with a retry.
    ///   - safeToRepeat: `false` for a request that must not be sent twice (a payment, say):
    ///     a transport failure then reaches the caller at once. A 401 is still retried after
    ///     the login, since the server refused the request without acting on it.
    /// - Returns: the response and its body.
    /// - Throws: `AuthenticationError.sessionExpired` after logging the user out, when the
    ///   login was refused or no credentials are stored; ``TransportError`` when no answer came
    ///   after the retries; the login's own error when it failed another way (the session is kept);
    ///   a keyring error when the token cannot be read or saved.
    public func send(_ request: HTTPRequest, body: Data? = nil, safeToRepeat: Bool = true) async throws -> (HTTPResponse, Data) {
        let used = try await storedToken()
        let first = try await transmit(request, body: body, token: used, safeToRepeat: safeToRepeat)
        guard first.0.status == .unauthorized else { return first }
        let fresh = try await renewedToken(replacing: used)
        return try await transmit(request, body: body, token: fresh, safeToRepeat: safeToRepeat)
    }

    /// Checks the stored token at app start against the app's status endpoint.
    ///
    /// With no token, or a token the endpoint answers 401, the client logs in quietly with the
    /// stored credentials and asks again. With no stored credentials then, or refused ones, it
    /// logs the user out. A valid token with no stored credentials is left alone: the user stays
    /// logged in until the token expires.
    /// - Parameter statusRequest: a cheap request that needs the token, such as `GET /me`.
    /// - Returns: whether the token was valid, renewed, or the user was logged out.
    /// - Throws: `AuthenticationError.unexpectedStatus` when the endpoint answers neither success
    ///   nor 401 (nothing is changed then); ``TransportError``, the login's own error or a keyring
    ///   error, as for `send`.
    public func validateSession(statusRequest: HTTPRequest) async throws -> SessionValidation {
        let used = try await storedToken()
        if let used {
            let (response, _) = try await transmit(statusRequest, body: nil, token: used, safeToRepeat: true)
            if response.status.kind == .successful { return .valid }
            guard response.status == .unauthorized else { throw AuthenticationError.unexpectedStatus(response.status) }
        }
        let fresh: AccessToken
        do {
            fresh = try await renewedToken(replacing: used)
        } catch AuthenticationError.sessionExpired(let reason) {
            return .loggedOut(reason)
        }
        let (response, _) = try await transmit(statusRequest, body: nil, token: fresh, safeToRepeat: true)
        guard response.status.kind == .successful else { throw AuthenticationError.unexpectedStatus(response.status) }
        return .renewed
    }

    // MARK: The token

    private func storedToken() async throws -> AccessToken? {
        try await session.string(for: tokenProperty).map(AccessToken.init)
    }

    /// A token newer than `used`: the one already stored if another request renewed it,
    /// else the result of the one login that runs for everybody.
    private func renewedToken(replacing used: AccessToken?) async throws -> AccessToken {
        let finishedBefore = loginsFinished
        if let stored = try await storedToken(), stored != used {
            logger.debug("token was renewed meanwhile; retrying with it")
            return stored
        }
        if let running = loginInFlight {
            return try await running.value
        }
        // The read above suspended the actor; a login may have run and ended meanwhile.
        if loginsFinished != finishedBefore, let lastLogin {
            return try lastLogin.get()
        }
        let running = Task { try await self.logInAgain() }
        loginInFlight = running
        return try await running.value
    }

    /// Logs in with the stored credentials and saves the token; logs out when that is impossible or refused.
    private func logInAgain() async throws -> AccessToken {
        defer {
            loginInFlight = nil
            loginsFinished += 1
        }
        do {
            let token = try await logInWithStoredCredentials()
            lastLogin = .success(token)
            return token
        } catch {
            lastLogin = .failure(error)
            throw error
        }
    }

    private func logInWithStoredCredentials() async throws -> AccessToken {
        guard let credentials = try await session.defaultCredentials() else {
            throw await endSession(.noStoredCredentials)
        }
        logger.debug("logging in again with the stored credentials")
        let started = ContinuousClock.now
        let token: AccessToken
        do {
            token = try await withRetries(safeToRepeat: true, what: "login") { [login] in
                try await login(credentials)
            }
        } catch  where isLoginRefusal(error) {
            logger.debug("login refused", metadata: ["ms": "\(Self.milliseconds(since: started))"])
            throw await endSession(.credentialsRefused)
        }
        guard !token.value.isEmpty else {
            throw KeyringError.invalidRecord(field: tokenProperty.rawValue, reason: "the login returned an empty token")
        }
        try await session.set(token.value, for: tokenProperty)
        logger.debug("logged in again; new token saved", metadata: ["ms": "\(Self.milliseconds(since: started))"])
        return token
    }

    /// Logs the user out and returns the error that says so; a failed logout is logged, not thrown,
    /// since the user has to log in again either way.
    private func endSession(_ reason: AuthenticationError.ExpiryReason) async -> AuthenticationError {
        do {
            try await session.logout()
        } catch {
            logger.info("logout after an expired session failed", metadata: ["error": "\(Self.loggable(error))"])
        }
        logger.debug("session expired; logged out", metadata: ["reason": "\(reason.rawValue)"])
        return .sessionExpired(reason)
    }

    // MARK: Sending

    private func transmit(_ request: HTTPRequest, body: Data?, token: AccessToken?, safeToRepeat: Bool) async throws -> (
        HTTPResponse, Data
    ) {
        let prepared = token.map { tokenAttachment.attaching($0, to: request) } ?? request
        let method = request.method.rawValue
        let path = (request.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        return try await withRetries(safeToRepeat: safeToRepeat, what: "\(method) \(path)") { [transport, logger] in
            let started = ContinuousClock.now
            do {
                let (response, data) = try await transport.send(prepared, body: body)
                logger.debug(
                    "HTTP request",
                    metadata: [
                        "method": "\(method)", "path": "\(path)", "status": "\(response.status.code)",
                        "ms": "\(Self.milliseconds(since: started))",
                    ])
                return (response, data)
            } catch {
                logger.debug(
                    "HTTP request got no answer",
                    metadata: [
                        "method": "\(method)", "path": "\(path)", "error": "\(Self.loggable(error))",
                        "ms": "\(Self.milliseconds(since: started))",
                    ])
                throw error
            }
        }
    }

    /// Runs `attempt` within the timeout, again after a wait for each retryable failure the policy allows.
    private func withRetries<Value: Sendable>(
        safeToRepeat: Bool,
        what: String,
        _ attempt: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let seconds = timeout.inSeconds
        var retry = 0
        while true {
            do {
                return try await TimeLimit.run(
                    until: Deadline(timeout),
                    orThrow: {
                        TransportError(.timedOut, reason: "no answer within \(seconds) s")
                    }, attempt)
            } catch {
                guard safeToRepeat, retry < retryPolicy.maxRetries, !isLoginRefusal(error), retryPolicy.shouldRetry(error) else {
                    throw error
                }
                retry += 1
                let delay = retryPolicy.delay(beforeRetry: retry)
                logger.debug(
                    "retrying after a transport failure",
                    metadata: [
                        "request": "\(what)", "retry": "\(retry)", "delay-ms": "\(delay.inMilliseconds)",
                    ])
                try await Task.sleep(for: delay)
            }
        }
    }

    // MARK: Log helpers

    /// The error as logged: transport and keyring errors carry no secrets; anything else is named by type only.
    private static func loggable(_ error: any Error) -> String {
        switch error {
        case let error as TransportError: return error.description
        case let error as KeyringError: return error.description
        case let error as AuthenticationError: return error.description
        default: return String(describing: type(of: error))
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        (ContinuousClock.now - start).inMilliseconds
    }
}
