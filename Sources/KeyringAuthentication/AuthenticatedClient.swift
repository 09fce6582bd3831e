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
///     let (response, data) = try await CurlTransport(answerLimit: CurlTransport.loginAnswerLimit).send(login, body: body)
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
/// Each `send` has one deadline, `timeout` from its start, which covers its
/// attempts, the waits between them and the quiet login it waits for; when it
/// passes, `send` throws ``TransportError`` of kind `.timedOut` at once. A
/// cancelled task's `send` throws `CancellationError` at once, whatever it
/// waits for; a login that other requests still wait for goes on for them, and
/// one nobody waits for any more is cancelled. Requests that get no whole answer
/// are sent again as `retryPolicy` says (see ``RetryPolicy``) when their method is
/// idempotent or the caller says they are safe to repeat. A login's token is
/// checked before it is stored: an empty one, one longer than
/// ``AccessToken/maxLength`` or one with a byte a header cannot carry is refused.
///
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

    /// The login that requests answered 401 wait for, while one runs.
    private struct RunningLogin {
        let number: Int
        let task: Task<AccessToken, any Error>
        /// The requests waiting for it; when the last one stops waiting, the login is cancelled.
        var waiters = 0
    }

    private var runningLogin: RunningLogin?
    private var loginsStarted = 0
    /// How many logins have finished, and how the last one ended: a request that
    /// read the token while a login ran and ended takes that login's outcome
    /// rather than starting another. A login cancelled because nobody waited is not counted.
    private var loginsFinished = 0
    private var lastLogin: Result<AccessToken, any Error>?

    /// Makes a client over `session`.
    /// - Parameters:
    ///   - session: the session; its keyring's default credentials are used to log in again.
    ///   - tokenProperty: the property that holds the token; it must be secure, so the token stays in the keyring.
    ///   - transport: how requests are sent; ``CurlTransport`` by default (30 s and 16 MiB an answer).
    ///   - tokenAttachment: how the token goes into a request; `Authorization: Bearer <token>` by default.
    ///   - retryPolicy: how requests (and logins) that got no whole answer are retried; two retries by default.
    ///   - timeout: the deadline of one `send` or `validateSession`, from its start: its attempts, the waits
    ///     between them and the quiet login it waits for all fit in it, whatever the transport does. A quiet
    ///     login gets the same bound from its own start.
    ///   - isLoginRefusal: which errors of `login` mean "these credentials are refused";
    ///     by default `AuthenticationError.loginRefused`. Give your own to accept your app's "bad credentials" error.
    ///   - logger: where requests are logged, at debug level; `nil` means the session's keyring's `logger`.
    ///   - login: logs in with the stored credentials and returns the new token. Throw
    ///     `AuthenticationError.loginRefused` (see `AuthenticationError.checkLoginResponse`) when refused.
    /// - Throws: `KeyringError.invalidConfiguration` naming `tokenProperty` when it is not secure.
    public init(
        session: Session<Property>,
        tokenProperty: Property,
        transport: any HTTPTransport = CurlTransport(),
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
    /// and a second 401 after a fresh login is returned as it is. All of it happens within the
    /// client's `timeout`, counted from this call.
    /// - Parameters:
    ///   - request: the request; the token is attached to a copy of it.
    ///   - body: the request body, sent again with a retry.
    ///   - safeToRepeat: whether a request that got no whole answer may be sent again. By default
    ///     (`nil`) only idempotent methods are (`RetryPolicy.isIdempotent(_:)`): GET, HEAD, OPTIONS,
    ///     TRACE, PUT, DELETE, never a POST or a PATCH. Pass `true` for a request the server
    ///     de-duplicates, `false` for one that must never be sent twice. A 401 is still sent again
    ///     after the login, since the server refused the request without acting on it.
    /// - Returns: the response and its body.
    /// - Throws: `AuthenticationError.sessionExpired` after logging the user out, when the
    ///   login was refused or no credentials are stored; ``TransportError`` when no whole answer
    ///   came (`.timedOut` when the deadline passed); `CancellationError` when the task was
    ///   cancelled; the login's own error when it failed another way (the session is kept);
    ///   `KeyringError.invalidRecord` naming the token property when the login returned a token
    ///   that cannot be sent (nothing is stored); a keyring error when the token cannot be read or saved.
    public func send(_ request: HTTPRequest, body: Data? = nil, safeToRepeat: Bool? = nil) async throws -> (HTTPResponse, Data) {
        let mayRepeat = safeToRepeat ?? RetryPolicy.isIdempotent(request.method)
        return try await withinDeadline(of: request) { client, deadline in
            let used = try await client.storedToken()
            let first = try await client.transmit(request, body: body, token: used, mayRepeat: mayRepeat, deadline: deadline)
            guard first.0.status == .unauthorized else { return first }
            let fresh = try await client.renewedToken(replacing: used, deadline: deadline)
            return try await client.transmit(request, body: body, token: fresh, mayRepeat: mayRepeat, deadline: deadline)
        }
    }

    /// Checks the stored token at app start against the app's status endpoint.
    ///
    /// With no token, or a token the endpoint answers 401, the client logs in quietly with the
    /// stored credentials and asks again. With no stored credentials then, or refused ones, it
    /// logs the user out. A valid token with no stored credentials is left alone: the user stays
    /// logged in until the token expires. All of it happens within the client's `timeout`.
    /// - Parameter statusRequest: a cheap request that needs the token, such as `GET /me`.
    /// - Returns: whether the token was valid, renewed, or the user was logged out.
    /// - Throws: `AuthenticationError.unexpectedStatus` when the endpoint answers neither success
    ///   nor 401 (nothing is changed then); ``TransportError``, `CancellationError`, the login's own
    ///   error or a keyring error, as for `send`.
    public func validateSession(statusRequest: HTTPRequest) async throws -> SessionValidation {
        let mayRepeat = RetryPolicy.isIdempotent(statusRequest.method)
        return try await withinDeadline(of: statusRequest) { client, deadline in
            let used = try await client.storedToken()
            if let used {
                let (response, _) = try await client.transmit(
                    statusRequest, body: nil, token: used, mayRepeat: mayRepeat, deadline: deadline)
                if response.status.kind == .successful { return .valid }
                guard response.status == .unauthorized else { throw AuthenticationError.unexpectedStatus(response.status) }
            }
            let fresh: AccessToken
            do {
                fresh = try await client.renewedToken(replacing: used, deadline: deadline)
            } catch AuthenticationError.sessionExpired(let reason) {
                return .loggedOut(reason)
            }
            let (response, _) = try await client.transmit(
                statusRequest, body: nil, token: fresh, mayRepeat: mayRepeat, deadline: deadline)
            guard response.status.kind == .successful else { throw AuthenticationError.unexpectedStatus(response.status) }
            return .renewed
        }
    }

    /// Runs `work` under one deadline, `timeout` from now, and ends at once when the deadline passes
    /// or the task is cancelled; says so in the log, with the request's method and path.
    private func withinDeadline<Value: Sendable>(
        of request: HTTPRequest,
        _ work: @escaping @Sendable (AuthenticatedClient, Deadline) async throws -> Value
    ) async throws -> Value {
        let deadline = Deadline(timeout)
        let started = ContinuousClock.now
        let expired = Self.deadlineError(timeout)
        do {
            return try await TimeLimit.run(until: deadline, orThrow: expired) { [self] in try await work(self, deadline) }
        } catch let error as TransportError where error == expired {
            logger.debug("HTTP request ran out of time", metadata: Self.metadata(request, started: started, error: error))
            throw error
        } catch is CancellationError {
            logger.debug("HTTP request cancelled", metadata: Self.metadata(request, started: started, error: CancellationError()))
            throw CancellationError()
        }
    }

    private static func deadlineError(_ timeout: Duration) -> TransportError {
        TransportError(.timedOut, reason: "no whole answer within the request's deadline of \(timeout.inSeconds) s")
    }

    // MARK: The token

    private func storedToken() async throws -> AccessToken? {
        try await session.string(for: tokenProperty).map(AccessToken.init)
    }

    /// A token newer than `used`: the one already stored if another request renewed it,
    /// else the result of the one login that runs for everybody, waited for until `deadline`.
    private func renewedToken(replacing used: AccessToken?, deadline: Deadline) async throws -> AccessToken {
        let finishedBefore = loginsFinished
        if let stored = try await storedToken(), stored != used {
            logger.debug("token was renewed meanwhile; retrying with it")
            return stored
        }
        if runningLogin == nil {
            // The read above suspended the actor; a login may have run and ended meanwhile.
            if loginsFinished != finishedBefore, let lastLogin {
                return try lastLogin.get()
            }
            startLogin()
        }
        return try await waitForLogin(until: deadline)
    }

    /// Starts the login everybody waits for, bounded by `timeout` from now.
    private func startLogin() {
        loginsStarted += 1
        let number = loginsStarted
        let (timeout, expired) = (timeout, Self.deadlineError(timeout))
        let task = Task { [self] in
            let result: Result<AccessToken, any Error>
            do {
                result = .success(
                    try await TimeLimit.run(until: Deadline(timeout), orThrow: expired) { [self] in
                        try await logInWithStoredCredentials()
                    })
            } catch {
                result = .failure(error)
            }
            loginEnded(number, result)
            return try result.get()
        }
        runningLogin = RunningLogin(number: number, task: task)
    }

    private func loginEnded(_ number: Int, _ result: Result<AccessToken, any Error>) {
        // Not the running one: it was cancelled when its last waiter left, and its outcome is nobody's.
        guard runningLogin?.number == number else { return }
        runningLogin = nil
        loginsFinished += 1
        lastLogin = result
    }

    /// Waits for the running login until `deadline` or the caller's cancellation; the last waiter to
    /// leave early cancels the login, which nobody needs then.
    private func waitForLogin(until deadline: Deadline) async throws -> AccessToken {
        guard let running = runningLogin else { throw CancellationError() }
        runningLogin?.waiters += 1
        defer { stopWaiting(for: running.number) }
        let task = running.task
        return try await TimeLimit.run(until: deadline, orThrow: Self.deadlineError(timeout)) {
            try await task.value
        }
    }

    private func stopWaiting(for number: Int) {
        guard var running = runningLogin, running.number == number else { return }
        running.waiters -= 1
        guard running.waiters == 0 else {
            runningLogin = running
            return
        }
        runningLogin = nil
        running.task.cancel()
        logger.debug("login cancelled: no request waits for it any more")
    }

    /// Logs in with the stored credentials and saves the token; logs out when that is impossible or refused.
    private func logInWithStoredCredentials() async throws -> AccessToken {
        guard let credentials = try await session.defaultCredentials() else {
            throw await endSession(.noStoredCredentials)
        }
        logger.debug("logging in again with the stored credentials")
        let started = ContinuousClock.now
        let token: AccessToken
        do {
            // A login changes nothing on the server but the tokens it holds, so it may be repeated.
            token = try await withRetries(mayRepeat: true, deadline: Deadline(timeout), failure: "login attempt failed", [:]) {
                [login] in try await login(credentials)
            }.value
        } catch  where isLoginRefusal(error) {
            logger.debug("login refused", metadata: ["ms": "\(Self.milliseconds(since: started))"])
            throw await endSession(.credentialsRefused)
        }
        if let problem = token.headerProblem {
            logger.debug("login returned a token that cannot be sent; nothing stored", metadata: ["reason": "\(problem)"])
            throw KeyringError.invalidRecord(field: tokenProperty.rawValue, reason: "the login returned \(problem)")
        }
        try Task.checkCancellation()
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

    private func transmit(_ request: HTTPRequest, body: Data?, token: AccessToken?, mayRepeat: Bool, deadline: Deadline)
        async throws -> (HTTPResponse, Data)
    {
        let prepared = token.map { tokenAttachment.attaching($0, to: request) } ?? request
        let place = Self.metadata(request)
        let answer = try await withRetries(mayRepeat: mayRepeat, deadline: deadline, failure: "HTTP request got no answer", place)
        {
            [transport] in try await transport.send(prepared, body: body)
        }
        logger.debug(
            "HTTP request",
            metadata: place.merging(["status": "\(answer.value.0.status.code)", "ms": "\(answer.milliseconds)"]) { $1 })
        return answer.value
    }

    /// Runs `attempt`, again after a wait for each retryable failure the policy allows while the
    /// deadline leaves time for it; logs each failure as what it was.
    /// - Returns: the value, with the milliseconds its successful attempt took.
    private func withRetries<Value: Sendable>(
        mayRepeat: Bool,
        deadline: Deadline,
        failure: Logger.Message,
        _ place: Logger.Metadata,
        _ attempt: () async throws -> Value
    ) async throws -> (value: Value, milliseconds: Int) {
        var retry = 0
        while true {
            let started = ContinuousClock.now
            do {
                return (try await attempt(), Self.milliseconds(since: started))
            } catch {
                // Cancelled by the caller or at the deadline: said once, where the request ends, as what it was.
                if Task.isCancelled { throw error }
                logger.debug(
                    failure,
                    metadata: place.merging(["error": "\(Self.loggable(error))", "ms": "\(Self.milliseconds(since: started))"]) {
                        $1
                    })
                guard mayRepeat, retry < retryPolicy.maxRetries, !isLoginRefusal(error), retryPolicy.shouldRetry(error) else {
                    throw error
                }
                retry += 1
                let delay = retryPolicy.delay(beforeRetry: retry)
                guard delay < deadline.remaining else {
                    logger.debug("not retrying: the deadline comes first", metadata: place)
                    throw error
                }
                logger.debug(
                    "retrying after a transport failure",
                    metadata: place.merging(["retry": "\(retry)", "delay-ms": "\(delay.inMilliseconds)"]) { $1 })
                try await Task.sleep(for: delay)
            }
        }
    }

    // MARK: Log helpers

    /// Method and path (without the query) of `request`; with the time since `started` and `error` when given.
    private static func metadata(_ request: HTTPRequest, started: ContinuousClock.Instant? = nil, error: (any Error)? = nil)
        -> Logger.Metadata
    {
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\((request.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "")",
        ]
        if let started { metadata["ms"] = "\(milliseconds(since: started))" }
        if let error { metadata["error"] = "\(loggable(error))" }
        return metadata
    }

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
