/// The error `ValidationRule.matches(_:message:)` throws when its pattern is not a regular expression.
///
/// It is thrown when the rule is made, not when it runs, so a mistyped pattern
/// fails where the validator is written instead of passing every value.
public struct InvalidPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as it was given (a rule's pattern, never a value being checked).
    public var pattern: String
    /// Why the regular expression parser refused it.
    public var reason: String

    /// Creates the error.
    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    /// One sentence naming the pattern and why it is refused.
    public var description: String {
        "\"\(pattern)\" is not a regular expression: \(reason)"
    }
}
