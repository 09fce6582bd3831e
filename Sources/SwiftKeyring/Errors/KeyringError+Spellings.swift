extension KeyringError {
    /// No record is stored under `key` (used where a missing record is an error rather than `nil`).
    public static func notFound(key: String) -> KeyringError {
        KeyringError(.notFound, key: key)
    }

    /// A record failed validation: `field` names the field (`username`,
    /// `password`, `url`, `key`, `service`, `secret`, or a property of yours),
    /// `reason` says why.
    public static func invalidRecord(field: String, reason: String) -> KeyringError {
        KeyringError(.invalidRecord, field: field, reason: reason)
    }

    /// A setting the program or the environment gave is unusable: `setting`
    /// names it (an environment variable such as `SWIFT_KEYRING_BACKEND`, or a
    /// parameter such as `promptTimeout`), `reason` says why.
    public static func invalidConfiguration(setting: String, reason: String) -> KeyringError {
        KeyringError(.invalidConfiguration, setting: setting, reason: reason)
    }

    /// The store cannot be reached; `reason` says which part is missing.
    public static func serviceUnavailable(reason: Unavailability) -> KeyringError {
        KeyringError(.serviceUnavailable, path: reason.path, unavailability: reason)
    }

    /// The collection or item holding the record is locked.
    public static var locked: KeyringError { KeyringError(.locked) }

    /// The person dismissed the unlock prompt.
    public static var promptDismissed: KeyringError { KeyringError(.promptDismissed) }

    /// The person dismissed the prompt that confirms storing a new item: nothing was stored.
    public static var confirmationDismissed: KeyringError { KeyringError(.confirmationDismissed) }

    /// Nobody answered the unlock prompt shown for `operation` within `seconds`.
    public static func promptTimedOut(operation: String, seconds: Double) -> KeyringError {
        KeyringError(.promptTimedOut, operation: operation, seconds: seconds)
    }

    /// The operation did not finish within the timeout.
    public static func timedOut(operation: String, seconds: Double) -> KeyringError {
        KeyringError(.timedOut, operation: operation, seconds: seconds)
    }

    /// The store needs a passphrase or key and none of the sources gave one.
    public static func passphraseRequired(sources: [String]) -> KeyringError {
        KeyringError(.passphraseRequired, sources: sources)
    }

    /// The passphrase or key does not open the store.
    public static var wrongPassphrase: KeyringError { KeyringError(.wrongPassphrase) }

    /// The stored data cannot be trusted: it was changed, truncated or is of an unknown version.
    public static func damaged(reason: String) -> KeyringError {
        KeyringError(.damaged, reason: reason)
    }

    /// The file at `path` or its folder can be read by others, or belongs to another user.
    public static func insecurePermissions(path: String, reason: String) -> KeyringError {
        KeyringError(.insecurePermissions, reason: reason, path: path)
    }

    /// Any other failure of the underlying library, with its error domain and code.
    public static func backend(domain: String, code: Int, message: String) -> KeyringError {
        KeyringError(.backend, backendDomain: domain, backendCode: code, backendMessage: message)
    }
}
