import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The redirect rule of ``URLSessionTransport``: a redirect is followed only to the
/// origin (scheme, host, port) of the request the app sent; any other 3xx comes
/// back to the caller as it is.
///
/// Foundation copies every header, `Authorization` included, onto the redirected
/// request, so following a redirect to another host would hand it the token.
/// Stripping the header is not enough: a ``TokenAttachment`` may put the token in
/// any header, the path or the query, and only the app knows where. Not following
/// is the one rule that keeps the token at its origin whatever the attachment;
/// https → http is another origin (the scheme differs), so it is never followed either.
package enum SameOriginRedirects {
    /// Whether `task` may follow its redirect to `request`.
    static func follows(task: URLSessionTask, to request: URLRequest) -> Bool {
        // The original request, not the current one: a chain of redirects may never leave the first origin.
        guard let from = task.originalRequest?.url, let to = request.url else { return false }
        return isSameOrigin(from, to)
    }

    /// Whether `a` and `b` have the same scheme, host and port (a missing port is the scheme's default).
    package static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased(), schemeA == schemeB,
            let hostA = a.host?.lowercased(), let hostB = b.host?.lowercased(), hostA == hostB
        else { return false }
        return effectivePort(a, scheme: schemeA) == effectivePort(b, scheme: schemeB)
    }

    private static func effectivePort(_ url: URL, scheme: String) -> Int? {
        if let port = url.port { return port }
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
