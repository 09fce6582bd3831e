/// What a person reads when a rule fails, when the rule's own words do not fit.
///
/// A string literal is a whole sentence, shown as it is:
///
/// ```swift
/// .minLength(4, message: "Pick a username of four letters or more.")
/// .minLength(4, message: .reason("is too short"))   // "Username is too short."
/// ```
public enum ValidationMessage: Sendable, Hashable, ExpressibleByStringLiteral {
    /// A whole sentence, shown instead of the rule's own.
    case sentence(String)
    /// The words that follow the field's display name, such as `"is too short"`;
    /// the sentence is "Display name" + reason + ".".
    case reason(String)

    /// A whole sentence.
    public init(stringLiteral value: String) {
        self = .sentence(value)
    }
}
