/// One check on one field of `Root`, whose value is a `Value`.
///
/// Make rules with the static functions (`.required()`, `.minLength(_:)`,
/// `.email()`, `.matches(_:)`, `.equal(to:displayName:)`, `.custom(_:_:)`) and
/// give them to `Validator.field`. Every rule takes an optional `message` that
/// replaces its own words. Rules are `Sendable`: their closures must be too.
public struct ValidationRule<Root, Value>: Sendable {
    private let reasonIfInvalid: @Sendable (Value, Root) -> String?
    private let message: ValidationMessage?

    /// A rule from a closure that returns why `value` fails, or `nil` when it passes.
    ///
    /// Use it when the reason depends on the value; it must not quote a secret.
    /// ```swift
    /// ValidationRule<Form, URL> { url, _ in
    ///     url.scheme == "https" ? nil : "must use https, not \(url.scheme ?? "nothing")"
    /// }
    /// ```
    /// - Parameters:
    ///   - message: replaces the closure's words when given.
    ///   - check: receives the field's value and the whole value being validated.
    public init(message: ValidationMessage? = nil, _ check: @escaping @Sendable (_ value: Value, _ root: Root) -> String?) {
        self.reasonIfInvalid = check
        self.message = message
    }

    /// A rule that passes when `isValid` returns `true`, and otherwise fails with `reason`.
    ///
    /// ```swift
    /// .custom("should not be a common password") { !common.contains($0) }
    /// ```
    /// - Parameters:
    ///   - reason: the words that follow the field's display name, such as `should not be "admin"`.
    ///   - message: replaces the rule's words when given.
    ///   - isValid: receives the field's value.
    public static func custom(
        _ reason: String,
        message: ValidationMessage? = nil,
        _ isValid: @escaping @Sendable (Value) -> Bool
    ) -> Self {
        Self(message: message) { value, _ in isValid(value) ? nil : reason }
    }

    /// The failure of `value` (the field `field` of `root`), or `nil` when it passes.
    func failure(of value: Value, in root: Root, field: String, displayName: String) -> ValidationFailure? {
        guard let ownReason = reasonIfInvalid(value, root) else { return nil }
        var reason = ownReason
        var message = "\(displayName) \(ownReason)."
        switch self.message {
        case .sentence(let sentence):
            message = sentence
        case .reason(let override):
            reason = override
            message = "\(displayName) \(override)."
        case nil:
            break
        }
        return ValidationFailure(field: field, displayName: displayName, reason: reason, message: message)
    }
}
