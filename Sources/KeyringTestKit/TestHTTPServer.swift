import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 login server on a loopback address, to test an app's quiet re-authentication
/// (`AuthenticatedClient`) without a real server: it issues tokens, accepts them until told to
/// expire them, and counts the logins.
///
/// ```swift
/// let server = try TestHTTPServer(username: "alice", password: "correct horse")
/// defer { server.stop() }
/// // log in against server.url("/login"), send requests to server.url("/data") …
/// server.expireTokens()              // the next request gets 401; the client logs in again
/// #expect(server.counts.logins == 2)
/// ```
///
/// Routes:
/// - `POST /login` with JSON `{"username", "password"}`: a new token for the accepted
///   credentials (`{"token": …}`), 401 otherwise; 500 while ``setFailLogins(_:)`` is set;
///   held, unanswered, from ``holdLogins()`` until ``releaseLogins()``.
/// - `/data` (any method) and `GET /status`: 200 with a valid token (`Authorization: Bearer` or `X-Auth-Token`), else 401.
/// - `GET /fail`: always 500.
/// - `GET /slow`: 200 after two seconds, longer than a test client's timeout should be.
/// - any path given to ``redirect(_:to:)``: 302 to that URL.
/// - `GET /landing`: 200, whatever the token, so a redirect's end is seen to be reached.
/// - any path given to ``inject(_:at:)``: the ``Fault`` it names (a trickle, silence, an empty
///   reply, a huge or endless body, a late answer, a bad token), whatever the method.
///
/// One thread accepts, one thread per connection answers, and every answer closes the
/// connection. ``stop()`` closes the listening socket, so clients get "connection refused"
/// until ``start(port:)`` listens on the same port again.
public final class TestHTTPServer: Sendable {
    /// How many logins the server was asked for and granted.
    public struct Counts: Sendable, Equatable {
        /// Every `POST /login` read, refused, faulty or not.
        public var loginAttempts = 0
        /// The logins that issued a token.
        public var logins = 0

        /// Counts, zero unless given.
        public init(loginAttempts: Int = 0, logins: Int = 0) {
            self.loginAttempts = loginAttempts
            self.logins = logins
        }
    }

    private struct State {
        var listener: LoopbackListener?
        var port: UInt16 = 0
        var username: String
        var password: String
        var validTokens: Set<String> = []
        var issuedTokens: [String] = []
        var counts = Counts()
        var requests: [String] = []
        var authorizations: [String: [String]] = [:]
        var redirects: [String: String] = [:]
        var loginDelay: Duration = .zero
        var loginsHeld = false
        var failLogins = false
        var faults: [String: Fault] = [:]
        var bodyBytesSent: [String: Int] = [:]
        /// Connections being read or answered.
        var answering = 0
    }

    private let state: Mutex<State>
    /// Entered while logins are held (`holdLogins`): a login waits until it is left.
    private let loginGate = DispatchGroup()
    /// The IPv4 loopback address listened on; 127.0.0.2 is another origin than 127.0.0.1.
    public let host: String

    /// Starts listening on `host` on a port the system picks.
    /// - Parameters:
    ///   - username: the one username `POST /login` accepts.
    ///   - password: the password it accepts with it, until ``changePassword(to:)``.
    ///   - host: an IPv4 loopback address.
    /// - Throws: the socket's `POSIXError` when the address cannot be listened on.
    public init(username: String = "alice", password: String = "unused", host: String = "127.0.0.1") throws {
        state = Mutex(State(username: username, password: password))
        self.host = host
        try start()
    }

    deinit {
        stop()
    }

    /// The port listened on.
    public var port: UInt16 { state.withLock { $0.port } }
    /// `http://host:port`, the origin of every route.
    public var baseURL: URL { url("") }
    /// The logins asked for and granted so far.
    public var counts: Counts { state.withLock { $0.counts } }
    /// Every token `POST /login` issued, in order, valid or expired.
    public var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// "METHOD /path" of every request answered, in order.
    public var requests: [String] { state.withLock { $0.requests } }

    /// The `Authorization` values requests to `path` carried, one per request that had one.
    public func authorizations(at path: String) -> [String] {
        state.withLock { $0.authorizations[path] ?? [] }
    }

    /// From now on every request to `path` is answered 302 with `Location: target`.
    public func redirect(_ path: String, to target: URL) {
        state.withLock { $0.redirects[path] = target.absoluteString }
    }

    /// The URL of `path`, which may carry a query.
    public func url(_ path: String) -> URL { URL(string: "http://\(host):\(port)" + path)! }

    /// Every token issued so far stops being accepted.
    public func expireTokens() {
        state.withLock { $0.validTokens.removeAll() }
    }

    /// From now on only `password` logs in, as after a password change elsewhere.
    public func changePassword(to password: String) {
        state.withLock { $0.password = password }
    }

    /// How long `POST /login` takes to answer, so that concurrent requests overlap it.
    public func setLoginDelay(_ delay: Duration) {
        state.withLock { $0.loginDelay = delay }
    }

    /// From now on every request to `path` meets `fault`; `nil` makes the path answer as usual again.
    public func inject(_ fault: Fault?, at path: String) {
        state.withLock { $0.faults[path] = fault }
    }

    /// How many body bytes the faults at `path` sent so far, counted as the kernel took them: an
    /// answer the client stopped reading stays near what the client read plus the sockets' buffers.
    public func bodyBytesSent(at path: String) -> Int {
        state.withLock { $0.bodyBytesSent[path] ?? 0 }
    }

    /// Waits until no connection is being answered, so a fault's counts are final: a trickle or an
    /// endless body ends when the client closes its connection.
    /// - Parameter timeout: the longest wait.
    /// - Returns: whether it came to that within `timeout`.
    public func waitUntilIdle(timeout: Duration = .seconds(10)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while state.withLock({ $0.answering }) > 0 {
            // A sleep, not a blocked thread: the client under test needs Swift concurrency's threads meanwhile.
            guard ContinuousClock.now < end, (try? await Task.sleep(for: .milliseconds(10))) != nil else { return false }
        }
        return true
    }

    /// While set, `POST /login` answers 500 (a broken server, not a refusal).
    public func setFailLogins(_ fail: Bool) {
        state.withLock { $0.failLogins = fail }
    }

    /// From now on `POST /login` is read (and counted) but not answered until
    /// ``releaseLogins()``: requests that need a login all wait for it, however long the
    /// test's own steps take, where ``setLoginDelay(_:)`` gives them a window a loaded machine
    /// can miss. A held login is answered after five minutes anyway, so a test that never
    /// releases it ends.
    public func holdLogins() {
        state.withLock { state in
            guard !state.loginsHeld else { return }
            state.loginsHeld = true
            loginGate.enter()
        }
    }

    /// Answers the held logins, and every login after, as usual.
    public func releaseLogins() {
        state.withLock { state in
            guard state.loginsHeld else { return }
            state.loginsHeld = false
            loginGate.leave()
        }
    }

    // MARK: Listening

    /// Listens on `port` (0: any free port) and accepts connections until ``stop()``.
    /// - Throws: the socket's `POSIXError`, for example when the port is taken.
    public func start(port: UInt16 = 0) throws {
        let listener = try LoopbackListener(host: host, port: port) { [self] connection in serve(connection) }
        state.withLock { state in
            state.listener = listener
            state.port = listener.port
        }
    }

    /// Stops listening, answers held logins (``holdLogins()``), and waits (at most 5 s) for the
    /// accepting thread to end.
    public func stop() {
        releaseLogins()
        let listener = state.withLock { state in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.stop()
    }

    // MARK: Answering

    private func serve(_ connection: Int32) {
        state.withLock { $0.answering += 1 }
        defer { state.withLock { $0.answering -= 1 } }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard let request = HTTPMessage.read(from: connection) else { return }
        let (location, fault) = state.withLock { state in
            state.requests.append("\(request.method) \(request.path)")
            if request.method == "POST", request.path == "/login" { state.counts.loginAttempts += 1 }
            if let authorization = request.headers["authorization"] {
                state.authorizations[request.path, default: []].append(authorization)
            }
            return (state.redirects[request.path], state.faults[request.path])
        }
        if let location {
            HTTPMessage.write(status: 302, body: Data(), headers: ["Location": location], to: connection)
            return
        }
        let path = request.path
        let faulty = FaultyAnswer(
            connection: connection,
            isServing: { [self] in state.withLock { $0.listener != nil } },
            counted: { [self] count in state.withLock { $0.bodyBytesSent[path, default: 0] += count } }
        )
        var issued: String?
        switch fault {
        case nil, .answerAfter: break
        case .issueToken(let token): issued = token
        case let fault?:
            _ = faulty.write(fault)
            return
        }
        let (status, body) = answer(request, issuing: issued)
        if let fault, !faulty.write(fault) { return }
        HTTPMessage.write(status: status, body: body, to: connection)
    }

    private func answer(_ request: HTTPMessage, issuing issued: String?) -> (Int, Data) {
        switch (request.method, request.path) {
        case ("GET", "/landing"):
            return (200, Data(#"{"landed":true}"#.utf8))
        case ("POST", "/login"):
            return login(request, issuing: issued)
        case (_, "/data"):
            return isAuthorized(request) ? (200, Data(#"{"data":"the user's data"}"#.utf8)) : (401, Data())
        case ("GET", "/status"):
            return isAuthorized(request) ? (200, Data(#"{"status":"ok"}"#.utf8)) : (401, Data())
        case ("GET", "/fail"):
            return (500, Data(#"{"error":"broken"}"#.utf8))
        case ("GET", "/slow"):
            Thread.sleep(forTimeInterval: 2)
            return (200, Data())
        default:
            return (404, Data())
        }
    }

    private func login(_ request: HTTPMessage, issuing issued: String?) -> (Int, Data) {
        _ = loginGate.wait(timeout: .now() + 300)
        let delay = state.withLock { $0.loginDelay }
        if delay > .zero {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        }
        let given = try? JSONDecoder().decode([String: String].self, from: request.body)
        return state.withLock { state in
            if state.failLogins { return (500, Data()) }
            guard let given, given["username"] == state.username, given["password"] == state.password else {
                return (401, Data())
            }
            state.counts.logins += 1
            let token = issued ?? "token-\(state.counts.logins)-\(UUID().uuidString)"
            state.validTokens.insert(token)
            state.issuedTokens.append(token)
            // JSONSerialization escapes what a bad token holds (CR LF, quotes), so the client reads it whole.
            let body = (try? JSONSerialization.data(withJSONObject: ["token": token])) ?? Data()
            return (200, body)
        }
    }

    private func isAuthorized(_ request: HTTPMessage) -> Bool {
        let bearer = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let token = bearer ?? request.headers["x-auth-token"] else { return false }
        return state.withLock { $0.validTokens.contains(token) }
    }
}
