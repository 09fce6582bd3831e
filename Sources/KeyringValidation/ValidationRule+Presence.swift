extension ValidationRule where Value: Collection & SendableMetatype {
    /// Fails when the value is empty: "Username is required."
    ///
    /// Text of spaces only counts as a value; add `.matches(_:)` to refuse it.
    /// - Parameter message: replaces the rule's words when given.
    public static func required(message: ValidationMessage? = nil) -> Self {
        .custom("is required", message: message) { !$0.isEmpty }
    }
}

extension ValidationRule where Value: Equatable & SendableMetatype {
    /// Fails when the value differs from another field's, as for a password
    /// confirmation: "Confirmation should match Password."
    /// - Parameters:
    ///   - other: the field to compare with.
    ///   - displayName: the other field's name as a person reads it.
    ///   - message: replaces the rule's words when given.
    public static func equal(
        to other: KeyPath<Root, Value> & Sendable,
        displayName: String,
        message: ValidationMessage? = nil
    ) -> Self {
        Self(message: message) { value, root in
            value == root[keyPath: other] ? nil : "should match \(displayName)"
        }
    }
}
