import KeyringValidation

extension KeyringError {
    /// The error ``Keyring`` throws for a failed rule: the field's identifier and the reason.
    ///
    /// An app that checks a form with the `KeyringValidation` rules can throw its failures
    /// as the same error ``Keyring`` throws for a record it refuses.
    public init(_ failure: ValidationFailure) {
        self = .invalidRecord(field: failure.field, reason: failure.reason)
    }
}
