#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every failure the keyring reports, as small named cases a program can switch on.
///
/// No case ever carries a password, passphrase, token or key: the associated
/// values name fields, settings, paths and reasons only, so an error is safe to
/// log or show to a person. The reasons a program may act on are types, not
/// sentences: ``serviceUnavailable(reason:)`` carries a
/// ``KeyringError/Unavailability`` whose case says whether the bus, the daemon
/// or the file is missing.
///
/// ```swift
/// do {
///     try keyring.set(credentials, forKey: "work")
/// } catch KeyringError.serviceUnavailable(.noSessionBus) {
///     // a headless host: use the encrypted file instead
/// } catch KeyringError.invalidRecord(let field, _) {
///     highlight(field)
/// }
/// ```
public enum KeyringError: Error, Sendable, Hashable {
    /// No record is stored under `key` (used where a missing record is an error
    /// rather than `nil`).
    case notFound(key: String)
    /// A record failed validation: `field` names the field (`username`, `password`,
    /// `url`, `key`, `service`, `secret`, or a property of yours), `reason` says why.
    case invalidRecord(field: String, reason: String)
    /// A setting the program or the environment gave is unusable: `setting` names
    /// it (an environment variable such as `SWIFT_KEYRING_BACKEND`, or a parameter
    /// such as `promptTimeout`), `reason` says why.
    case invalidConfiguration(setting: String, reason: String)
    /// The store cannot be reached; `reason` says which part is missing.
    case serviceUnavailable(reason: Unavailability)
    /// The collection or file holding the record is locked.
    case locked
    /// The person dismissed the unlock prompt.
    case promptDismissed
    /// Nobody answered the unlock prompt shown for `operation` within `seconds`.
    case promptTimedOut(operation: String, seconds: Double)
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
        case .invalidConfiguration(let setting, let reason):
            return "Invalid \(setting): \(reason)."
        case .serviceUnavailable(let reason):
            return "The keyring is unavailable: \(reason)."
        case .locked:
            return "The keyring is locked; unlock it (for example by logging in to the desktop) and try again."
        case .promptDismissed:
            return "The unlock prompt was dismissed."
        case .promptTimedOut(let operation, let seconds):
            return "Nobody answered the unlock prompt to \(operation) within \(Self.format(seconds)) s."
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

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension KeyringError: LocalizedError {
    /// The same sentence as `description`, so `error.localizedDescription` reads as one.
    public var errorDescription: String? { description }
}
