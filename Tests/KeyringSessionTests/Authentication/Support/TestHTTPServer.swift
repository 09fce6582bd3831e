import Foundation
import KeyringTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on a loopback address (127.0.0.1 unless told) for the authentication tests: one
/// thread accepts, one thread per connection answers, every answer closes the connection.
///
/// Routes:
/// - `POST /login` with JSON `{"username", "password"}`: a new token for the accepted
///   credentials (`{"token": …}`), 401 otherwise; 500 while `failLogins` is set.
/// - `/data` (any method) and `GET /status`: 200 with a valid token (`Authorization: Bearer` or `X-Auth-Token`), else 401.
/// - `GET /fail`: always 500.
/// - `GET /slow`: 200 after two seconds, longer than the tests' client timeouts.
/// - any path given to `redirect(_:to:)`: 302 to that URL.
/// - `GET /landing`: 200, whatever the token, so a redirect's end is seen to be reached.
///
/// `stop()` closes the listening socket, so clients get "connection refused"
/// until `start(port:)` listens on the same port again.
final class TestHTTPServer: Sendable {
    struct Counts: Equatable {
        var loginAttempts = 0
        var logins = 0
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
        var failLogins = false
    }

    private let state: Mutex<State>
    /// The IPv4 loopback address listened on; 127.0.0.2 is another origin than 127.0.0.1.
    let host: String

    /// Starts listening on `host` on a port the system picks.
    init(username: String = "alice", password: String = "unused", host: String = "127.0.0.1") throws {
        state = Mutex(State(username: username, password: password))
        self.host = host
        try start()
    }

    deinit {
        stop()
    }

    var port: UInt16 { state.withLock { $0.port } }
    var baseURL: URL { url("") }
    var counts: Counts { state.withLock { $0.counts } }
    var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// "METHOD /path" of every request answered, in order.
    var requests: [String] { state.withLock { $0.requests } }

    /// The `Authorization` values requests to `path` carried, one per request that had one.
    func authorizations(at path: String) -> [String] {
        state.withLock { $0.authorizations[path] ?? [] }
    }

    /// From now on every request to `path` is answered 302 with `Location: target`.
    func redirect(_ path: String, to target: URL) {
        state.withLock { $0.redirects[path] = target.absoluteString }
    }

    /// The URL of `path`, which may carry a query.
    func url(_ path: String) -> URL { URL(string: "http://\(host):\(port)" + path)! }

    /// Every token issued so far stops being accepted.
    func expireTokens() {
        state.withLock { $0.validTokens.removeAll() }
    }

    /// From now on only `password` logs in, as after a password change elsewhere.
    func changePassword(to password: String) {
        state.withLock { $0.password = password }
    }

    /// How long `POST /login` takes to answer, so that concurrent requests overlap it.
    func setLoginDelay(_ delay: Duration) {
        state.withLock { $0.loginDelay = delay }
    }

    /// While set, `POST /login` answers 500 (a broken server, not a refusal).
    func setFailLogins(_ fail: Bool) {
        state.withLock { $0.failLogins = fail }
    }

    // MARK: Listening

    /// Listens on `port` (0: any free port) and accepts connections until `stop()`.
    func start(port: UInt16 = 0) throws {
        let listener = try LoopbackListener(host: host, port: port) { [self] connection in serve(connection) }
        state.withLock { state in
            state.listener = listener
            state.port = listener.port
        }
    }

    /// Stops listening and waits (at most 5 s) for the accepting thread to end.
    func stop() {
        let listener = state.withLock { state in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.stop()
    }

    // MARK: Answering

    private func serve(_ connection: Int32) {
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard let request = HTTPMessage.read(from: connection) else { return }
        let location = state.withLock { state in
            state.requests.append("\(request.method) \(request.path)")
            if let authorization = request.headers["authorization"] {
                state.authorizations[request.path, default: []].append(authorization)
            }
            return state.redirects[request.path]
        }
        if let location {
            HTTPMessage.write(status: 302, body: Data(), headers: ["Location": location], to: connection)
            return
        }
        let (status, body) = answer(request)
        HTTPMessage.write(status: status, body: body, to: connection)
    }

    private func answer(_ request: HTTPMessage) -> (Int, Data) {
        switch (request.method, request.path) {
        case ("GET", "/landing"):
            return (200, Data(#"{"landed":true}"#.utf8))
        case ("POST", "/login"):
            return login(request)
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

    private func login(_ request: HTTPMessage) -> (Int, Data) {
        let delay = state.withLock { state in
            state.counts.loginAttempts += 1
            return state.loginDelay
        }
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
            let token = "token-\(state.counts.logins)-\(UUID().uuidString)"
            state.validTokens.insert(token)
            state.issuedTokens.append(token)
            return (200, Data(#"{"token":"\#(token)"}"#.utf8))
        }
    }

    private func isAuthorized(_ request: HTTPMessage) -> Bool {
        let bearer = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let token = bearer ?? request.headers["x-auth-token"] else { return false }
        return state.withLock { $0.validTokens.contains(token) }
    }
}
