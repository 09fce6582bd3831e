/// One rule that one field did not pass.
///
/// `message` is the sentence to show a person ("Username should have at least
/// 4 characters."); `field` and `reason` are for code, such as the error an app
/// throws for the form (Keyring's `KeyringError(failure)`). No part holds the field's value.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The field's identifier, as given to `Validator.field`, such as `username`.
    public var field: String
    /// The field's name as a person reads it, such as `Username`.
    public var displayName: String
    /// What is wrong, as the words that follow the display name, such as
    /// `should have at least 4 characters`. A `ValidationMessage.reason` override
    /// replaces it; a `.sentence` override leaves it as the rule's own.
    public var reason: String
    /// One sentence a person can read.
    public var message: String

    /// Creates a failure.
    public init(field: String, displayName: String, reason: String, message: String) {
        self.field = field
        self.displayName = displayName
        self.reason = reason
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
