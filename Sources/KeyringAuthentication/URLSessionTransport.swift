public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: Foundation's `URLSession`, with no cache, no cookies and a timeout.
///
/// Redirects are followed only within the request's origin (scheme, host and port).
/// A redirect to another origin, https → http included, is not followed: its 3xx
/// answer is returned as it is, so the token never reaches a server the app did not address.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport on a fresh ephemeral `URLSession`.
    /// - Parameter timeout: how long one request may take, from sending to the last byte of the answer.
    public init(timeout: Duration = .seconds(30)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.inSeconds
        configuration.timeoutIntervalForResource = timeout.inSeconds
        // A cached 401 or a stale token in a cookie would defeat re-authentication.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        self.init(session: URLSession(configuration: configuration))
    }

    /// A transport on a session the app configured; its timeouts apply, and redirects
    /// to another origin are still not followed, whatever the session's delegate does.
    public init(session: URLSession) {
        self.session = session
    }

    private static let redirects = SameOriginRedirects()

    /// Sends `request` through the session; a redirect to another origin comes back as its 3xx answer.
    /// - Throws: ``TransportError`` when no answer came; `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let data: Data
        let response: HTTPResponse
        do {
            (response, data) = try await session.sameOriginResponse(for: request, body: body, redirects: Self.redirects)
        } catch let error as URLError {
            throw Self.transportError(error)
        }
        return (response, data)
    }

    /// The ``TransportError`` for a `URLError`; its text is left out because it can quote the URL.
    static func transportError(_ error: URLError) -> any Error {
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
        default:
            return TransportError(.other, reason: code)
        }
    }
}
