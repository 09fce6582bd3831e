import Glibc
import SwiftKeyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// etcd's JSON gateway over HTTP/1.1 (libcurl): one call is one POST, retried on the other
/// members when one is down, has no leader or does not answer, all before the caller's deadline.
///
/// The member that answered last is asked first next time, so a healthy cluster
/// costs one round trip a call; a dead member costs a refused connection (at once)
/// or at most half the bound, then the next member is asked.
final class EtcdClient: Sendable {
    let endpoints: [URL]
    /// The bound on one public call, retries and token renewal included: each call's `Deadline`.
    let timeout: Duration

    private let connections = CurlConnectionPool()
    private let tls: EtcdTLS
    private let proxy: URL?
    private let preferred = Mutex(0)
    private let login: Login?
    private let token = Mutex<String?>(nil)

    /// An etcd user and password, for clusters with authentication enabled.
    struct Login: Sendable {
        var user: String
        var password: String
    }

    /// The pause between two rounds over every member, so a cluster electing a leader is not hammered.
    private static let pauseBetweenRounds = Duration.milliseconds(100)

    /// The most bytes of one answer's body: a little more than the largest a record of this store
    /// can make. No answer is larger: a single record's read or write is one value, and listings
    /// come in pages that shrink when one would not fit (`rangePages`).
    ///
    /// The largest value is a 16 MiB secret sealed with a record entry of four 4 KiB names,
    /// `EtcdValue.largestBytes` (16.02 MiB); in base64 that is 21.36 MiB, and its etcd key and the
    /// JSON around it (a few hundred bytes) come on top. 24 MiB leaves 2.6 MiB to spare.
    static let maximumAnswerBytes = 24 << 20

    init(endpoints: [URL], timeout: Duration, login: Login?, tls: EtcdTLS, proxy: URL?) {
        self.endpoints = endpoints
        self.timeout = timeout
        self.login = login
        self.tls = tls
        self.proxy = proxy
    }

    /// An answer larger than `maximumAnswerBytes`, whose transfer was stopped there. A listing
    /// catches it to ask for a smaller page; anywhere else it becomes `keyringError`.
    struct OversizedAnswer: Error {
        var member: String
        var path: String

        var keyringError: KeyringError {
            .backend(
                domain: "etcd", code: 0,
                message: "the member \(member) sent more than \(EtcdClient.maximumAnswerBytes >> 20) MiB in answer to \(path), "
                    + "more than any record of this store can need; the transfer was stopped there")
        }
    }

    /// Sends one request and decodes the answer, before the call's deadline.
    /// - Parameters:
    ///   - path: the gateway's path, such as `/v3/kv/range`.
    ///   - operation: names the call in a `.timedOut` or `.serviceUnavailable` error.
    ///   - call: the public call's deadline and cancellation; a login or a token renewal this needs spends it too.
    ///   - pageable: whether the caller asks for a smaller page when the answer is too large, and so
    ///     wants `OversizedAnswer` rather than the error it stands for.
    /// - Throws: `.serviceUnavailable` when no member answered before the deadline (for example,
    ///   the cluster has lost its quorum), `.timedOut` when the members tried did not answer
    ///   at all, `.backend` for an error etcd reports that a retry cannot cure or an answer larger
    ///   than `maximumAnswerBytes`, and `CancellationError` when the bound operation is cancelled.
    func call<Request: Encodable, Response: Decodable>(
        _ path: String, _ request: Request, as: Response.Type, operation: String, call: StoreCall, pageable: Bool = false
    ) throws -> Response {
        do {
            return try callOnce(path, request, as: Response.self, operation: operation, call: call)
        } catch let oversized as OversizedAnswer where !pageable {
            throw oversized.keyringError
        }
    }

    private func callOnce<Request: Encodable, Response: Decodable>(
        _ path: String, _ request: Request, as: Response.Type, operation: String, call: StoreCall
    ) throws -> Response {
        let body = try JSONEncoder().encode(request)
        var renewedToken = false
        while true {
            let sent = try login.map { try currentToken($0, call: call) }
            do {
                let answer = try exchange(
                    path, body: body, headers: Self.headers(token: sent), operation: operation, call: call)
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

    /// The health of each member on its own, for `doctor`, before the call's deadline.
    ///
    /// Each member gets an equal share of what is left, at most 2 s, and one share is kept for
    /// what the caller asks next (the member list), so a silent member leaves time for the
    /// others; a member that answers is the one asked first afterwards.
    func memberStatus(call: StoreCall) -> [(URL, Result<StatusResponse, KeyringError>)] {
        // One login for all: with the cluster down, each attempt would wait out its share again.
        let headers = Self.headers(token: login.flatMap { try? currentToken($0, call: call) })
        let share = min(call.deadline.remaining / (endpoints.count + 1), .seconds(2))
        return endpoints.enumerated().map { index, url in
            guard !call.deadline.hasPassed else {
                return (url, .failure(call.deadline.timedOut("a status request (the time ran out before this member was asked)")))
            }
            do {
                switch try connections.withConnection({
                    try $0.post(
                        url.appendingPathComponent("v3/maintenance/status"), body: Data("{}".utf8), headers: headers,
                        call: call.capped(at: share), tls: tls, proxy: proxy, limit: Self.maximumAnswerBytes)
                }) {
                case .answered(200, let body):
                    guard let status = try? JSONDecoder().decode(StatusResponse.self, from: body) else {
                        return (url, .failure(.backend(domain: "etcd", code: 0, message: "the status does not decode")))
                    }
                    preferred.withLock { $0 = index }
                    return (url, .success(status))
                case .answered(let status, let body):
                    let error = try? JSONDecoder().decode(GatewayError.self, from: body)
                    return (url, .failure(.serviceUnavailable(reason: .noCluster(detail: error?.message ?? "HTTP \(status)"))))
                case .tooLarge:
                    return (url, .failure(OversizedAnswer(member: Self.member(url), path: "/v3/maintenance/status").keyringError))
                case .timedOut:
                    // In hundredths: the share is a fraction of what was left, not a round number.
                    let seconds = (share.inSeconds * 100).rounded() / 100
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

    /// The body of the first successful answer from any member, before the call's deadline.
    private func exchange(
        _ path: String, body: Data, headers: [String], operation: String, call: StoreCall
    ) throws -> Data {
        // Half the bound at most for one member, so a member that hangs (a lost quorum)
        // still leaves time to ask another.
        let turn = max(call.deadline.timeout / 2, .milliseconds(200))
        // A member's own answer (refused, no leader, an untrusted certificate) says more than
        // silence, so it is what the error reports; `.timedOut` only when every member was silent.
        var lastReason: String?
        while true {
            let first = preferred.withLock { $0 }
            for offset in 0..<endpoints.count {
                guard !call.deadline.hasPassed else { break }
                let index = (first + offset) % endpoints.count
                let url = endpoints[index]
                let member = Self.member(url)
                switch try connections.withConnection({
                    try $0.post(
                        url.appendingPathComponent(String(path.dropFirst())), body: body, headers: headers,
                        call: call.capped(at: turn), tls: tls, proxy: proxy, limit: Self.maximumAnswerBytes)
                }) {
                case .answered(200, let answer):
                    preferred.withLock { $0 = index }
                    return answer
                case .answered(let status, let answer):
                    let error = try? JSONDecoder().decode(GatewayError.self, from: answer)
                    let message = error?.message ?? error?.error ?? "HTTP \(status)"
                    let failure = EtcdStatus(code: error?.code ?? 0, description: message)
                    if failure.needsNewToken {
                        // The member is up and refused only the token: the renewal asks it first, rather
                        // than spending what is left of the deadline on a member that was silent.
                        preferred.withLock { $0 = index }
                        throw EtcdFailure.tokenRejected
                    }
                    guard failure.isTransient(httpStatus: status) else {
                        throw KeyringError.backend(domain: "etcd", code: failure.code, message: message)
                    }
                    lastReason = "\(member): \(message)"
                case .tooLarge:
                    // Not tried elsewhere: no record makes an answer this large, so a member that
                    // sends one is broken or hostile, and the caller should hear it at once.
                    throw OversizedAnswer(member: member, path: path)
                case .timedOut:
                    continue
                case .failed(let reason):
                    lastReason = "\(member): \(reason)"
                }
            }
            guard !call.deadline.hasPassed else { break }
            try pause(min(call.deadline.remaining, Self.pauseBetweenRounds), call)
        }
        guard let lastReason else {
            throw call.deadline.timedOut(operation)
        }
        throw KeyringError.serviceUnavailable(reason: .noCluster(detail: "\(operation) (last: \(lastReason))"))
    }

    /// `host:port` of a member, as errors name it.
    static func member(_ url: URL) -> String {
        "\(url.host ?? "?"):\(url.port.map(String.init) ?? "")"
    }

    /// Sleeps, waking early when the call is cancelled.
    private func pause(_ duration: Duration, _ call: StoreCall) throws {
        let pause = Deadline(duration)
        while true {
            try call.checkCancellation()
            let left = pause.remaining
            guard left > .zero else { return }
            usleep(UInt32(min(left.inMilliseconds + 1, 10) * 1000))
        }
    }

    /// The token this client holds, or a new one from a login that spends the call's deadline too.
    private func currentToken(_ login: Login, call: StoreCall) throws -> String {
        if let existing = token.withLock({ $0 }) { return existing }
        let body = try JSONEncoder().encode(AuthenticateRequest(name: login.user, password: login.password))
        let answer: Data
        do {
            answer = try exchange(
                "/v3/auth/authenticate", body: body, headers: [], operation: "authentication", call: call)
        } catch let error as KeyringError
            where error.code == .backend
            && EtcdStatus(code: error.backendCode ?? 0, description: error.backendMessage ?? "") == .authenticationFailed
        {
            throw KeyringError.backend(
                domain: "etcd", code: error.backendCode ?? 0,
                message: "etcd refused the user \"\(login.user)\" or the password in \(EtcdConfiguration.passwordFileVariable)")
        }
        guard let fresh = try? JSONDecoder().decode(AuthenticateResponse.self, from: answer).token, !fresh.isEmpty else {
            throw KeyringError.backend(domain: "etcd", code: 0, message: "etcd gave no token; is authentication enabled?")
        }
        // The token goes back in a header on every call: a line break in it would add header lines
        // of the server's choosing to each request. It is never quoted, as it is a credential.
        if let problem = HeaderValue.problem(fresh) {
            throw KeyringError.backend(
                domain: "etcd", code: 0,
                message: "etcd gave a token that cannot be sent in a header (\(problem)); it was not used")
        }
        token.withLock { $0 = fresh }
        return fresh
    }
}
