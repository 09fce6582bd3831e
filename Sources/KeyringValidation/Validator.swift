/// Rules for the fields of a `Root` value, checked all at once.
///
/// Build it by chaining `field` calls; `validate` returns every failure, in the
/// order the fields and rules were given, each as one sentence.
///
/// ```swift
/// struct SignUp { var username, email, password, confirmation: String }
///
/// let rules = try Validator<SignUp>()
///     .field("username", \.username, .required(), .length(4...20),
///            .matches("[a-z0-9_]+", message: .reason("should use only a-z, 0-9 and _")))
///     .field("email", \.email, .required(), .email())
///     .field("password", \.password, .minLength(12))
///     .field("confirmation", \.confirmation, displayName: "Password confirmation",
///            .equal(to: \.password, displayName: "Password"))
///
/// for failure in rules.validate(form) { print(failure.message) }
/// // Username should have between 4 and 20 characters.
/// ```
///
/// Every rule of every field runs, so an empty field that is also too short
/// reports both; leave out the rules that would repeat each other.
public struct Validator<Root>: Sendable {
    private var checks: [@Sendable (Root) -> [ValidationFailure]] = []

    /// A validator with no rules: every value passes.
    public init() {}

    /// Adds rules for one field.
    /// - Parameters:
    ///   - field: the field's identifier, as failures report it (`username`).
    ///   - keyPath: where the field's value is read from.
    ///   - displayName: the field's name in sentences; when `nil`, `field` with a capital first letter.
    ///   - rules: checked in this order.
    /// - Returns: a validator with these rules after the existing ones.
    public func field<Value>(
        _ field: String,
        _ keyPath: KeyPath<Root, Value> & Sendable,
        displayName: String? = nil,
        _ rules: ValidationRule<Root, Value>...
    ) -> Validator {
        self.field(field, keyPath, displayName: displayName, rules: rules)
    }

    /// Adds rules for one field, given as an array (for rule lists shared between fields).
    /// - Parameters:
    ///   - field: the field's identifier, as failures report it (`username`).
    ///   - keyPath: where the field's value is read from.
    ///   - displayName: the field's name in sentences; when `nil`, `field` with a capital first letter.
    ///   - rules: checked in this order.
    /// - Returns: a validator with these rules after the existing ones.
    public func field<Value>(
        _ field: String,
        _ keyPath: KeyPath<Root, Value> & Sendable,
        displayName: String? = nil,
        rules: [ValidationRule<Root, Value>]
    ) -> Validator {
        let name = displayName ?? field.prefix(1).uppercased() + field.dropFirst()
        var copy = self
        copy.checks.append { root in
            let value = root[keyPath: keyPath]
            return rules.compactMap { $0.failure(of: value, in: root, field: field, displayName: name) }
        }
        return copy
    }

    /// Every rule `root` fails, in order; empty when it passes them all.
    public func validate(_ root: Root) -> [ValidationFailure] {
        checks.flatMap { $0(root) }
    }
}
