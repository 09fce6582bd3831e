import KeyringValidation
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every failure the keyring reports: a ``Code`` a program matches on, the
/// details that go with it, and the ``Place`` (which store) it came from.
///
/// `KeyringError` is a struct with a growable code, as GRDB's `DatabaseError`
/// and AsyncHTTPClient's `HTTPClientError` are, so a new code in a later
/// release breaks no one's `switch`: match on ``code`` and keep a `default`.
///
/// ```swift
/// do {
///     try keyring.set(credentials, forKey: "work")
/// } catch KeyringError.Code.locked {
///     // ask the person to unlock, then try again
/// } catch let error as KeyringError where error.code == .invalidRecord {
///     highlight(error.field ?? "")
/// } catch KeyringError.Unavailability.Kind.noSessionBus {
///     // a headless host: use the encrypted file instead
/// }
/// ```
///
/// No error ever carries a password, passphrase, token or key: the details
/// name keys, fields, settings, paths and reasons only, so an error is safe to
/// log or show to a person.
///
/// Two errors are equal when their codes and details are equal. The ``place``
/// takes no part in equality: it says where the failure happened, not what it
/// was, so `error == .locked` holds for a locked error from any store, and a
/// test asserts the place with `error.place == .etcd`.
///
/// The old enum's spellings (``locked``, ``notFound(key:)``,
/// ``damaged(reason:)``, …) remain as static members and factories, so throw
/// sites read as before; see <doc:ErrorCases> for the migration of a `switch`.
public struct KeyringError: Error, Sendable, Hashable {
    /// What went wrong, the part of the error a program matches on.
    public let code: Code
    /// The store (or file) that failed, when known; messages name it.
    ///
    /// A ``Keyring`` sets it from its store as the error passes out, and the
    /// stores set it when they fail to open.
    public internal(set) var place: Place?
    /// The key of the record not found, for ``Code/notFound``.
    public let key: String?
    /// The invalid field (`username`, `password`, `url`, `key`, `service`,
    /// `secret`, or a property of yours), for ``Code/invalidRecord``.
    public let field: String?
    /// The unusable setting (an environment variable such as
    /// `SWIFT_KEYRING_BACKEND`, or a parameter such as `promptTimeout`), for
    /// ``Code/invalidConfiguration``.
    public let setting: String?
    /// Why the record, setting, data or path was refused, for
    /// ``Code/invalidRecord``, ``Code/invalidConfiguration``, ``Code/damaged``
    /// and ``Code/insecurePermissions``.
    public let reason: String?
    /// The path concerned, for ``Code/insecurePermissions`` and for an
    /// unavailability that names a path (no keyring file, no folder).
    public let path: String?
    /// The operation that waited too long, for ``Code/timedOut`` and
    /// ``Code/promptTimedOut``.
    public let operation: String?
    /// How long the operation waited, for ``Code/timedOut`` and ``Code/promptTimedOut``.
    public let seconds: Double?
    /// Where a passphrase could have come from, for ``Code/passphraseRequired``.
    public let sources: [String]?
    /// Why the store cannot be reached, for ``Code/serviceUnavailable``.
    public let unavailability: Unavailability?
    /// The underlying library's error domain, for ``Code/backend``.
    public let backendDomain: String?
    /// The underlying library's error code, for ``Code/backend``.
    public let backendCode: Int?
    /// The underlying library's message, for ``Code/backend``.
    public let backendMessage: String?

    init(
        _ code: Code,
        key: String? = nil,
        field: String? = nil,
        setting: String? = nil,
        reason: String? = nil,
        path: String? = nil,
        operation: String? = nil,
        seconds: Double? = nil,
        sources: [String]? = nil,
        unavailability: Unavailability? = nil,
        backendDomain: String? = nil,
        backendCode: Int? = nil,
        backendMessage: String? = nil
    ) {
        self.code = code
        self.place = nil
        self.key = key
        self.field = field
        self.setting = setting
        self.reason = reason
        self.path = path
        self.operation = operation
        self.seconds = seconds
        self.sources = sources
        self.unavailability = unavailability
        self.backendDomain = backendDomain
        self.backendCode = backendCode
        self.backendMessage = backendMessage
    }

    /// The same error, said to come from `place` unless it already names one.
    ///
    /// A store outside this package calls it on the errors it throws, so that
    /// messages name it: `throw KeyringError.damaged(reason: "…").placed(in: Place("vault"))`.
    ///
    /// - Parameter place: The store or file that failed.
    /// - Returns: The error with ``place`` set; an error that has a place keeps it.
    public func placed(in place: Place) -> KeyringError {
        guard self.place == nil else { return self }
        var placed = self
        placed.place = place
        return placed
    }

    /// Runs `body`, giving every `KeyringError` it throws the place `place`
    /// (unless it already names one). Other errors pass unchanged.
    package static func placing<T>(in place: Place, _ body: () throws -> T) rethrows -> T {
        do {
            return try body()
        } catch let error as KeyringError {
            throw error.placed(in: place)
        }
    }

    /// Equal codes and details; the ``place`` is not compared.
    public static func == (lhs: KeyringError, rhs: KeyringError) -> Bool {
        lhs.code == rhs.code && lhs.key == rhs.key && lhs.field == rhs.field && lhs.setting == rhs.setting
            && lhs.reason == rhs.reason && lhs.path == rhs.path && lhs.operation == rhs.operation
            && lhs.seconds == rhs.seconds && lhs.sources == rhs.sources && lhs.unavailability == rhs.unavailability
            && lhs.backendDomain == rhs.backendDomain && lhs.backendCode == rhs.backendCode
            && lhs.backendMessage == rhs.backendMessage
    }

    /// Hashes the code and details, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(key)
        hasher.combine(field)
        hasher.combine(setting)
        hasher.combine(reason)
        hasher.combine(path)
        hasher.combine(operation)
        hasher.combine(seconds)
        hasher.combine(sources)
        hasher.combine(unavailability)
        hasher.combine(backendDomain)
        hasher.combine(backendCode)
        hasher.combine(backendMessage)
    }

    /// Whether `error` is a `KeyringError` equal to `pattern` (code and
    /// details), so `catch KeyringError.wrongPassphrase` reads as it did with the enum.
    public static func ~= (pattern: KeyringError, error: any Error) -> Bool {
        (error as? KeyringError) == pattern
    }
}

extension KeyringError: LocalizedError {
    /// The same sentence as `description`, so `error.localizedDescription` reads as one.
    public var errorDescription: String? { description }
}

extension KeyringError {
    /// The error ``Keyring`` throws for a failed rule: the field's identifier and the reason.
    ///
    /// An app that checks a form with the `KeyringValidation` rules can throw its failures
    /// as the same error ``Keyring`` throws for a record it refuses.
    public init(_ failure: ValidationFailure) {
        self = .invalidRecord(field: failure.field, reason: failure.reason)
    }
}
