public import HTTPTypes

/// How the token goes into a request: by default `Authorization: Bearer <token>`.
///
/// ```swift
/// .bearer                                                  // Authorization: Bearer <token>
/// .header(HTTPField.Name("X-API-Key")!)                    // X-API-Key: <token>
/// .custom { request, token in request.path = "/v2" + (request.path ?? "") … }
/// ```
public struct TokenAttachment: Sendable {
    private let attach: @Sendable (inout HTTPRequest, AccessToken) -> Void

    /// Attaches the token with `attach`, for schemes a header cannot express.
    public static func custom(_ attach: @escaping @Sendable (inout HTTPRequest, AccessToken) -> Void) -> TokenAttachment {
        TokenAttachment(attach: attach)
    }

    /// Sets the header `name` to `prefix` followed by the token, replacing any value it had.
    /// - Parameters:
    ///   - name: the header field.
    ///   - prefix: what goes before the token, such as `"Bearer "`.
    public static func header(_ name: HTTPField.Name, prefix: String = "") -> TokenAttachment {
        .custom { request, token in
            request.headerFields[name] = prefix + token.value
        }
    }

    /// `Authorization: Bearer <token>` (RFC 6750).
    public static let bearer = header(.authorization, prefix: "Bearer ")

    /// `request` with `token` attached.
    func attaching(_ token: AccessToken, to request: HTTPRequest) -> HTTPRequest {
        var request = request
        attach(&request, token)
        return request
    }
}
