public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// An ``HTTPTransport`` on Foundation's `URLSession`, with no cache, no cookies, a timeout for
/// the whole answer and a limit on the answer it keeps; ``CurlTransport`` is the default.
///
/// FoundationNetworking (on Linux) reads an answer as fast as the server sends it and queues
/// each piece for the session's delegate, without waiting for it: the limit ends the transfer
/// and caps what is kept, but a fast server can fill memory with pieces waiting in that queue
/// before the limit is seen (a 1 GiB answer grew a process by 1.1 GB when the delegate took
/// 2 ms a piece). ``CurlTransport`` stops at the limit's byte, whatever the load; use this one
/// where a `URLSessionConfiguration` of the app's is needed.
///
/// - The timeout runs from sending to the last byte of the answer: a server that
///   sends its answer a byte at a time is cut off at `timeout` as surely as one
///   that sends nothing (`TransportError.Kind.timedOut`).
/// - The answer's body is read as it arrives and the transfer is stopped as soon
///   as it passes `answerLimit` bytes (`TransportError.Kind.answerTooLarge`),
///   before the whole of it is ever held; a `Content-Length` above the limit is refused
///   before any of the body is read.
/// - Redirects are followed only within the request's origin (scheme, host and port).
///   A redirect to another origin, https → http included, is not followed: its 3xx
///   answer is returned as it is, so the token never reaches a server the app did not address.
///
public struct URLSessionTransport: HTTPTransport {
    /// How long one request may take, from sending it to the last byte of its answer.
    public let timeout: Duration
    /// The most bytes of body an answer may have; a longer one is a ``TransportError`` of kind `.answerTooLarge`.
    public let answerLimit: Int

    private let owner: SessionOwner

    /// A transport on a fresh ephemeral `URLSession`: no cache, no cookies.
    /// - Parameters:
    ///   - timeout: how long one request may take, from sending it to the last byte of its answer.
    ///   - answerLimit: the most bytes of body an answer may have (at least 1); 16 MiB unless given.
    public init(timeout: Duration = .seconds(30), answerLimit: Int = defaultAnswerLimit) {
        let configuration = URLSessionConfiguration.ephemeral
        // A cached 401 or a stale token in a cookie would defeat re-authentication.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        self.init(configuration: configuration, timeout: timeout, answerLimit: answerLimit)
    }

    /// A transport on a session made from the app's `configuration` (its proxy, TLS settings,
    /// extra headers); the timeout and the limit hold whatever the configuration says.
    ///
    /// The transport makes the session itself because it must be the session's delegate to
    /// read answers as they arrive; an app's own session and its delegate cannot be used.
    /// - Parameters:
    ///   - configuration: the app's configuration; it is copied.
    ///   - timeout: how long one request may take, from sending it to the last byte of its answer.
    ///   - answerLimit: the most bytes of body an answer may have (at least 1).
    public init(configuration: URLSessionConfiguration, timeout: Duration = .seconds(30), answerLimit: Int = defaultAnswerLimit) {
        let configuration = configuration.copy() as! URLSessionConfiguration
        // Silence is caught by these; a steady trickle only by the transport's own clock in `send`.
        configuration.timeoutIntervalForRequest = timeout.inSeconds
        configuration.timeoutIntervalForResource = timeout.inSeconds
        self.timeout = timeout
        self.answerLimit = max(1, answerLimit)
        owner = SessionOwner(configuration: configuration)
    }

    /// Sends `request` and reads its answer within the timeout and the limit; a redirect to
    /// another origin comes back as its 3xx answer.
    /// - Throws: ``TransportError`` when no whole answer came: `.timedOut` at the timeout (the
    ///   whole answer's), `.answerTooLarge` past the limit, `.cannotConnect`, `.connectionLost`
    ///   (a connection closed or broken before the whole answer, an empty reply included),
    ///   `.other`; `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let seconds = timeout.inSeconds
        let (owner, limit) = (owner, answerLimit)
        do {
            let late = TransportError(.timedOut, reason: "the whole answer did not come within \(seconds) s")
            return try await TimeLimit.run(until: Deadline(timeout), orThrow: late) {
                try await owner.reader.answer(to: request, body: body, limit: limit, on: owner.session)
            }
        } catch let error as URLError {
            throw Self.transportError(error, answerBegun: false)
        }
    }

    /// The ``TransportError`` for a `URLError`; its text is left out because it can quote the URL.
    /// - Parameter answerBegun: whether the answer's head had come; a failure after it means the connection broke.
    static func transportError(_ error: URLError, answerBegun: Bool) -> any Error {
        let code = "URL error \(error.code.rawValue)"
        switch error.code {
        case .cancelled:
            return CancellationError()
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return TransportError(.cannotConnect, reason: "the server could not be reached (\(code))")
        case .timedOut:
            return TransportError(.timedOut, reason: "the server did not answer in time (\(code))")
        case .networkConnectionLost:
            return TransportError(.connectionLost, reason: "the connection broke before the answer was complete (\(code))")
        case .badServerResponse where !answerBegun:
            // libcurl's "Empty reply from server": the connection closed before any answer.
            return TransportError(.connectionLost, reason: "the server closed the connection without answering (\(code))")
        case .unknown where answerBegun:
            // libcurl's "transfer closed with N bytes remaining to read".
            return TransportError(.connectionLost, reason: "the connection closed before the whole answer came (\(code))")
        default:
            return TransportError(.other, reason: code)
        }
    }
}

/// The transport's session and its delegate; the session is invalidated when the last copy
/// of the transport goes, since a session keeps its delegate and its threads until then.
private final class SessionOwner: Sendable {
    let reader = AnswerReader()
    let session: URLSession

    init(configuration: URLSessionConfiguration) {
        // A serial queue of its own: the reader's callbacks for one task come in order.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: reader, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}
