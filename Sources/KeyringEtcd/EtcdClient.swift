import Dispatch
import Glibc
import Keyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// etcd's JSON gateway over HTTP/1.1 (libcurl): one call is one POST, retried on the other
/// members when one is down, has no leader or does not answer, all within one bound.
///
/// The member that answered last is asked first next time, so a healthy cluster
/// costs one round trip a call; a dead member costs a refused connection (at once)
/// or at most half the bound, then the next member is asked.
final class EtcdClient: Sendable {
    let endpoints: [URL]
    /// The bound on one call, retries included, in seconds.
    let timeout: Double

    private let connections = CurlConnectionPool()
    private let tls: EtcdTLS
    private let preferred = Mutex(0)
    private let login: Login?
    private let token = Mutex<String?>(nil)

    /// An etcd user and password, for clusters with authentication enabled.
    struct Login: Sendable {
        var user: String
        var password: String
    }

    /// The pause between two rounds over every member, so a cluster electing a leader is not hammered.
    private static let pauseBetweenRounds = 0.1

    init(endpoints: [URL], timeout: Duration, login: Login?, tls: EtcdTLS) {
        self.endpoints = endpoints
        self.timeout = timeout.inSeconds
        self.login = login
        self.tls = tls
    }

    /// Sends one request and decodes the answer.
    /// - Parameters:
    ///   - path: the gateway's path, such as `/v3/kv/range`.
    ///   - operation: names the call in a `.timedOut` or `.serviceUnavailable` error.
    /// - Throws: `.serviceUnavailable` when no member answered within the bound (for example,
    ///   the cluster has lost its quorum), `.timedOut` when the last members tried did not answer
    ///   at all, `.backend` for an error etcd reports that a retry cannot cure, and
    ///   `CancellationError` when the bound operation is cancelled.
    func call<Request: Encodable, Response: Decodable>(
        _ path: String, _ request: Request, as: Response.Type, operation: String
    ) throws -> Response {
        let body = try JSONEncoder().encode(request)
        var renewedToken = false
        while true {
            let sent = try login.map(currentToken)
            do {
                let answer = try exchange(path, body: body, headers: Self.headers(token: sent), operation: operation)
                do {
                    return try JSONDecoder().decode(Response.self, from: answer)
                } catch {
                    throw KeyringError.backend(domain: "etcd", code: 0, message: "the answer to \(path) does not decode")
                }
            } catch EtcdFailure.tokenRejected where login != nil && !renewedToken {
                // Tokens expire (five minutes by default); a fresh one is asked for once. Only the
                // token this call sent is forgotten: another thread may already have stored a new one.
                token.withLock { if $0 == sent { $0 = nil } }
                renewedToken = true
            } catch EtcdFailure.tokenRejected {
                throw KeyringError.backend(
                    domain: "etcd", code: 16,
                    message: "the cluster requires authentication; set \(EtcdConfiguration.userVariable) "
                        + "and \(EtcdConfiguration.passwordFileVariable)")
            }
        }
    }

    /// The health of each member on its own, asked within `seconds` each: for `doctor`.
    func memberStatus(seconds: Double) -> [(URL, Result<StatusResponse, KeyringError>)] {
        // One login for all: with the cluster down, each attempt waits out the whole bound.
        let headers = Self.headers(token: login.flatMap { try? currentToken($0) })
        return endpoints.map { url in
            do {
                switch try connections.withConnection({
                    try $0.post(
                        url.appendingPathComponent("v3/maintenance/status"), body: Data("{}".utf8), headers: headers,
                        seconds: seconds, tls: tls)
                }) {
                case .answered(200, let body):
                    guard let status = try? JSONDecoder().decode(StatusResponse.self, from: body) else {
                        return (url, .failure(.backend(domain: "etcd", code: 0, message: "the status does not decode")))
                    }
                    return (url, .success(status))
                case .answered(let status, let body):
                    let error = try? JSONDecoder().decode(GatewayError.self, from: body)
                    return (url, .failure(.serviceUnavailable(reason: .noCluster(detail: error?.message ?? "HTTP \(status)"))))
                case .timedOut:
                    return (url, .failure(.timedOut(operation: "a status request", seconds: seconds)))
                case .failed(let reason):
                    return (url, .failure(.serviceUnavailable(reason: .noCluster(detail: reason))))
                }
            } catch let error as KeyringError {
                return (url, .failure(error))  // libcurl could not be loaded
            } catch {
                return (url, .failure(.serviceUnavailable(reason: .noCluster(detail: "cancelled"))))
            }
        }
    }

    /// The request headers that carry `token`, when there is one.
    private static func headers(token: String?) -> [String] {
        token.map { ["Authorization: \($0)"] } ?? []
    }

    private enum EtcdFailure: Error {
        case tokenRejected
    }

    /// The body of the first successful answer from any member, within the bound.
    private func exchange(_ path: String, body: Data, headers: [String], operation: String) throws -> Data {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        func remaining() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            return now >= deadline ? 0 : Double(deadline - now) / 1e9
        }
        // A member's own answer (refused, no leader, an untrusted certificate) says more than
        // silence, so it is what the error reports; `.timedOut` only when every member was silent.
        var lastReason: String?
        while true {
            let first = preferred.withLock { $0 }
            for offset in 0..<endpoints.count {
                let left = remaining()
                guard left > 0 else { break }
                let index = (first + offset) % endpoints.count
                let url = endpoints[index]
                let member = "\(url.host ?? "?"):\(url.port.map(String.init) ?? "")"
                // Half the bound at most for one member, so a member that hangs (a lost quorum)
                // still leaves time to ask another.
                let seconds = min(left, max(timeout / 2, 0.2))
                switch try connections.withConnection({
                    try $0.post(
                        url.appendingPathComponent(String(path.dropFirst())), body: body, headers: headers, seconds: seconds,
                        tls: tls)
                }) {
                case .answered(200, let answer):
                    preferred.withLock { $0 = index }
                    return answer
                case .answered(let status, let answer):
                    let error = try? JSONDecoder().decode(GatewayError.self, from: answer)
                    let message = error?.message ?? error?.error ?? "HTTP \(status)"
                    let failure = EtcdStatus(code: error?.code ?? 0, description: message)
                    if failure.needsNewToken {
                        throw EtcdFailure.tokenRejected
                    }
                    guard failure.isTransient(httpStatus: status) else {
                        throw KeyringError.backend(domain: "etcd", code: failure.code, message: message)
                    }
                    lastReason = "\(member): \(message)"
                case .timedOut:
                    continue
                case .failed(let reason):
                    lastReason = "\(member): \(reason)"
                }
            }
            let left = remaining()
            guard left > 0 else { break }
            try pause(min(left, Self.pauseBetweenRounds))
        }
        guard let lastReason else {
            throw KeyringError.timedOut(operation: operation, seconds: timeout)
        }
        throw KeyringError.serviceUnavailable(reason: .noCluster(detail: "\(operation) (last: \(lastReason))"))
    }

    /// Sleeps, waking early when the bound operation is cancelled.
    private func pause(_ seconds: Double) throws {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < end {
            try OperationCancellation.check()
            usleep(10_000)
        }
        try OperationCancellation.check()
    }

    private func currentToken(_ login: Login) throws -> String {
        if let existing = token.withLock({ $0 }) { return existing }
        let body = try JSONEncoder().encode(AuthenticateRequest(name: login.user, password: login.password))
        let answer: Data
        do {
            answer = try exchange("/v3/auth/authenticate", body: body, headers: [], operation: "authentication")
        } catch KeyringError.backend(_, let code, let message)
            where EtcdStatus(code: code, description: message) == .authenticationFailed
        {
            throw KeyringError.backend(
                domain: "etcd", code: code,
                message: "etcd refused the user \"\(login.user)\" or the password in \(EtcdConfiguration.passwordFileVariable)")
        }
        guard let fresh = try? JSONDecoder().decode(AuthenticateResponse.self, from: answer).token, !fresh.isEmpty else {
            throw KeyringError.backend(domain: "etcd", code: 0, message: "etcd gave no token; is authentication enabled?")
        }
        token.withLock { $0 = fresh }
        return fresh
    }
}
