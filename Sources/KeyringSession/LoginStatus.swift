/// Whether the user counts as logged in.
public enum LoginStatus: String, Sendable, Hashable, Codable {
    /// Every required property has a value.
    case loggedIn
    /// A required property has no value, the session has no required properties, or the user logged out.
    case loggedOut
}
