public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

/// The default ``HTTPTransport``: libcurl, with a timeout for the whole answer, a limit on its
/// length enforced as it arrives, and redirects followed only within the request's origin.
///
/// - The timeout runs from sending to the last byte of the answer: a server that sends its
///   answer a byte at a time is cut off at `timeout` as surely as one that sends nothing
///   (`TransportError.Kind.timedOut`).
/// - The body is kept as libcurl hands it over, and the transfer ends at the byte that passes
///   `answerLimit` (`TransportError.Kind.answerTooLarge`); a `Content-Length` above the limit
///   is refused before any of the body is read. Memory stays flat whatever the server sends.
/// - A cancelled task ends the transfer at once and throws `CancellationError`.
/// - A redirect is followed (at most 10) only to the origin (scheme, host, port) of the request
///   the app sent; any other 3xx comes back as it is, so the token never reaches a server the
///   app did not address (see ``URLSessionTransport`` for why not following is the rule).
/// - Nothing is cached and no cookie is kept. libcurl's proxy variables (`https_proxy` and the
///   others) apply, as they do to FoundationNetworking, which is libcurl too.
///
/// The transfer runs on a thread of its own, never on Swift concurrency's threads. libcurl
/// (`libcurl.so.4`, 7.68 or later) is loaded when the first request is sent.
///
/// For a login, whose answer is a token and little else, give a smaller limit:
///
/// ```swift
/// let (response, data) = try await CurlTransport(answerLimit: CurlTransport.loginAnswerLimit).send(login, body: form)
/// ```
public struct CurlTransport: HTTPTransport {
    /// How many redirects within the origin are followed before the last 3xx is returned as it is.
    static let maxRedirects = 10

    /// How long one request may take, from sending it to the last byte of its answer.
    public let timeout: Duration
    /// The most bytes of body an answer may have; a longer one is a ``TransportError`` of kind `.answerTooLarge`.
    public let answerLimit: Int

    /// A transport with these bounds.
    /// - Parameters:
    ///   - timeout: how long one request may take, from sending it to the last byte of its answer
    ///     (redirects followed included).
    ///   - answerLimit: the most bytes of body an answer may have (at least 1); 16 MiB unless given.
    public init(timeout: Duration = .seconds(30), answerLimit: Int = defaultAnswerLimit) {
        self.timeout = timeout
        self.answerLimit = max(1, answerLimit)
    }

    /// Sends `request` and reads its answer within the timeout and the limit; a redirect to
    /// another origin comes back as its 3xx answer.
    /// - Throws: ``TransportError`` when no whole answer came: `.timedOut` at the timeout,
    ///   `.answerTooLarge` past the limit, `.cannotConnect`, `.connectionLost` (a connection closed
    ///   or broken before the whole answer, an empty reply included), `.other`;
    ///   `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard let first = request.url, let scheme = first.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw TransportError(.other, reason: "the request has no http or https URL")
        }
        let started = ContinuousClock.now
        var (url, method, body) = (first, request.method.rawValue, body)
        let headers = Self.headerLines(request.headerFields)
        for _ in 0...Self.maxRedirects {
            try Task.checkCancellation()
            let left = timeout - (ContinuousClock.now - started)
            let outcome = try await perform(method: method, url: url, headers: headers, body: body, timeout: left)
            let (response, data) = try answer(outcome)
            guard let next = Self.redirect(response, from: url, origin: first) else { return (response, data) }
            url = next
            // 303, and 301/302 after a POST, go on as a GET without a body, as browsers and libcurl do.
            if response.status.code == 303 || (response.status.code < 303 && method == "POST") {
                if method != "HEAD" { method = "GET" }
                body = nil
            }
        }
        throw TransportError(.other, reason: "more than \(Self.maxRedirects) redirects")
    }

    /// Runs one exchange on a thread of its own; cancelling the task ends it at once.
    private func perform(method: String, url: URL, headers: [String], body: Data?, timeout: Duration) async throws
        -> CurlExchange.Outcome
    {
        guard timeout > .zero else { return .timedOut }
        let exchange = try CurlExchange()
        let limit = answerLimit
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(
                        returning: exchange.perform(
                            method: method, url: url, headers: headers, body: body, limit: limit, timeout: timeout))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
        if case .cancelled = outcome { throw CancellationError() }
        return outcome
    }

    private func answer(_ outcome: CurlExchange.Outcome) throws -> (HTTPResponse, Data) {
        switch outcome {
        case .answered(let status, let reason, let fields, let body):
            var headerFields = HTTPFields()
            for (name, value) in fields {
                if let name = HTTPField.Name(name) { headerFields.append(HTTPField(name: name, value: value)) }
            }
            guard (100...999).contains(status) else { throw TransportError(.other, reason: "the answer had no status") }
            return (HTTPResponse(status: .init(code: status, reasonPhrase: reason), headerFields: headerFields), body)
        case .tooLarge(let limit):
            throw TransportError(.answerTooLarge, reason: "the answer is longer than the limit of \(limit) bytes (answerLimit)")
        case .timedOut:
            throw TransportError(.timedOut, reason: "the whole answer did not come within \(timeout.inSeconds) s")
        case .cancelled:
            throw CancellationError()
        case .failed(let code, let words):
            throw Self.transportError(code: code, words: words)
        }
    }

    /// The ``TransportError`` for libcurl's `code`; its words never quote the URL.
    static func transportError(code: Int, words: String) -> TransportError {
        let detail = "\(words) (libcurl \(code))"
        switch code {
        case 5, 6, 7:  // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST, COULDNT_CONNECT
            return TransportError(.cannotConnect, reason: "the server could not be reached: \(detail)")
        case 52:  // GOT_NOTHING
            return TransportError(.connectionLost, reason: "the server closed the connection without answering: \(detail)")
        case 18, 55, 56:  // PARTIAL_FILE, SEND_ERROR, RECV_ERROR
            return TransportError(.connectionLost, reason: "the connection broke before the whole answer came: \(detail)")
        default:
            return TransportError(.other, reason: detail)
        }
    }

    /// The request's fields as header lines; a value with a CR or LF is left out (HTTPTypes
    /// already turns those into spaces), so no line can become two.
    static func headerLines(_ fields: HTTPFields) -> [String] {
        fields.compactMap { field in
            field.value.contains(where: { $0 == "\r" || $0 == "\n" }) ? nil : "\(field.name.rawName): \(field.value)"
        }
    }

    /// Where a 3xx answer leads, when that is within `origin`; `nil` for an answer to return as it is.
    static func redirect(_ response: HTTPResponse, from url: URL, origin: URL) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headerFields[.location],
            let next = URL(string: location, relativeTo: url)?.absoluteURL, SameOriginRedirects.isSameOrigin(origin, next)
        else { return nil }
        return next
    }
}
