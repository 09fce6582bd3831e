import Foundation
public import HTTPTypes

/// How an ``AuthenticatedClient`` sends one HTTP request and receives its answer.
///
/// ``CurlTransport`` is the default; an app gives its own to reuse a client
/// it already has. Every status is an answer, not an error: a 401 or a 500
/// comes back as an `HTTPResponse`. Throw only when no whole answer came, as a
/// ``TransportError`` where possible, so the client knows which failures are
/// worth retrying (`RetryPolicy.isTransient`). Bound the whole answer in time
/// and its body in length while it arrives, as ``CurlTransport`` does: the
/// client's deadline ends the wait, but only the transport can stop the reading.
///
/// The request carries the token: a transport must never send it to another
/// origin (scheme, host, port). ``URLSessionTransport`` follows a redirect only
/// within the request's origin and returns any other 3xx as it is; do the same.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns the response and its body.
    /// - Parameters:
    ///   - request: the request, with the token already attached.
    ///   - body: the request body, or `nil` for none.
    /// - Returns: the response head and the whole response body.
    /// - Throws: ``TransportError`` when the server could not be reached or did not answer in time.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data)
}
