/// Every failure the keyring reports, as small named cases.
///
/// No case ever carries a password, passphrase, token or key: the associated
/// values name fields, paths and reasons only, so an error is safe to log or
/// show to a person.
public enum KeyringError: Error, Sendable, Hashable {
    /// No record is stored under `key` (used where a missing record is an error
    /// rather than `nil`).
    case notFound(key: String)
    /// A record, key or service failed validation: `field` names it, `reason` says why.
    case invalidRecord(field: String, reason: String)
    /// The store cannot be reached: no session bus, no Secret Service daemon, no file.
    case serviceUnavailable(reason: String)
    /// The collection or file holding the record is locked.
    case locked
    /// The person dismissed the unlock prompt.
    case promptDismissed
    /// The operation did not finish within the timeout.
    case timedOut(operation: String, seconds: Double)
    /// The encrypted file store needs a passphrase or key and none of the sources gave one.
    case passphraseRequired(sources: [String])
    /// The passphrase or key does not open the encrypted file.
    case wrongPassphrase
    /// The encrypted file cannot be trusted: it was changed, truncated or is of an unknown version.
    case damaged(reason: String)
    /// The keyring file or its folder can be read by others, or belongs to another user.
    case insecurePermissions(path: String, reason: String)
    /// Any other failure of the underlying library, with its error domain and code.
    case backend(domain: String, code: Int, message: String)
}

extension KeyringError: CustomStringConvertible {
    /// One sentence a person understands, naming what to do where there is something to do.
    public var description: String {
        switch self {
        case .notFound(let key):
            return "No record is stored under the key \"\(key)\"."
        case .invalidRecord(let field, let reason):
            return "Invalid \(field): \(reason)."
        case .serviceUnavailable(let reason):
            return "The keyring is unavailable: \(reason)."
        case .locked:
            return "The keyring is locked; unlock it (for example by logging in to the desktop) and try again."
        case .promptDismissed:
            return "The unlock prompt was dismissed."
        case .timedOut(let operation, let seconds) where operation.hasPrefix(Self.unlockPromptOperation):
            return "Nobody answered \(operation) within \(Self.format(seconds)) s."
        case .timedOut(let operation, let seconds):
            return "The keyring did not answer \(operation) within \(Self.format(seconds)) s."
        case .passphraseRequired(let sources):
            return "The keyring file needs a passphrase; give one through "
                + sources.joined(separator: ", ") + "."
        case .wrongPassphrase:
            return "The passphrase or key does not open the keyring file."
        case .damaged(let reason):
            return "The keyring file is damaged: \(reason); it was left as it is."
        case .insecurePermissions(let path, let reason):
            return "Refusing to use \(path): \(reason)."
        case .backend(let domain, let code, let message):
            return "Keyring backend error (\(domain) \(code)): \(message)"
        }
    }

    /// How a `.timedOut` for an unanswered unlock prompt names its operation:
    /// `the unlock prompt to read …`; the rest of the operation says what was asked.
    package static let unlockPromptOperation = "the unlock prompt"

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
