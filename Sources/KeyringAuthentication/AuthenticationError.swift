import Foundation
public import HTTPTypes

/// The failures of quiet re-authentication that are neither transport nor keyring errors.
public enum AuthenticationError: Error, Sendable, Hashable {
    /// Why a session had to end.
    public enum ExpiryReason: String, Sendable, Hashable {
        /// The token was refused and the keyring holds no default credentials to log in again with.
        case noStoredCredentials
        /// The stored credentials were refused by the login (changed password, disabled account).
        case credentialsRefused
    }

    /// The session is over: the token was refused, a quiet login was impossible or refused,
    /// and the user was logged out (`Session.logout()`). The app shows its login screen.
    case sessionExpired(ExpiryReason)
    /// Thrown by the app's login closure: the server refused these credentials.
    /// `status` is the server's answer (401 or 403), or `nil` when the refusal came another way.
    case loginRefused(status: HTTPResponse.Status?)
    /// The status endpoint of `validateSession` answered neither with success nor with 401.
    case unexpectedStatus(HTTPResponse.Status)

    /// Throws `loginRefused` when a login answered 401 or 403; for the app's login closure.
    ///
    /// ```swift
    /// let (response, body) = try await transport.send(loginRequest, body: form)
    /// try AuthenticationError.checkLoginResponse(response)
    /// ```
    /// - Throws: `AuthenticationError.loginRefused` carrying the status.
    public static func checkLoginResponse(_ response: HTTPResponse) throws {
        if response.status == .unauthorized || response.status == .forbidden {
            throw loginRefused(status: response.status)
        }
    }

    /// The client's default test for "the login was refused": `loginRefused`.
    /// Apps with their own "bad credentials" error pass a test that also accepts it.
    public static func isLoginRefusal(_ error: any Error) -> Bool {
        if case .loginRefused = error as? AuthenticationError { return true }
        return false
    }
}

extension AuthenticationError: CustomStringConvertible {
    /// One sentence a person understands.
    public var description: String {
        switch self {
        case .sessionExpired(.noStoredCredentials):
            return "The session expired and no credentials are stored to log in again; please log in."
        case .sessionExpired(.credentialsRefused):
            return "The session expired and the stored credentials were refused; please log in again."
        case .loginRefused(let status):
            return "The server refused the credentials" + (status.map { " (\($0.code))" } ?? "") + "."
        case .unexpectedStatus(let status):
            return "The session check answered \(status.code) \(status.reasonPhrase)."
        }
    }
}

extension AuthenticationError: LocalizedError {
    /// The same sentence as `description`, so `error.localizedDescription` reads as one.
    public var errorDescription: String? { description }
}
