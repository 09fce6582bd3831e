/// What `AuthenticatedClient.validateSession(statusRequest:)` found at app start.
public enum SessionValidation: Sendable, Hashable {
    /// The stored token was accepted.
    case valid
    /// The token was missing or expired; a quiet login with the stored credentials got a new one.
    case renewed
    /// The user was logged out, for this reason; the app shows its login screen.
    case loggedOut(AuthenticationError.ExpiryReason)
}
