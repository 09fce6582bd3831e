extension KeyringError {
    /// What went wrong: the part of a ``KeyringError`` a program matches on.
    ///
    /// Codes are static members of a struct rather than cases of an enum, so a
    /// later release can add one (as ``confirmationDismissed`` was added)
    /// without breaking a `switch`: such a `switch` needs a `default`, which is
    /// where a code this program does not know yet goes.
    ///
    /// ```swift
    /// switch error.code {
    /// case .notFound: return nil
    /// case .locked, .promptDismissed: askToUnlock()
    /// default: throw error
    /// }
    /// ```
    ///
    /// A code also matches a thrown error directly: `catch KeyringError.Code.locked`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `locked` or `notFound`.
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's stable name, such as `locked`.
        public var description: String { name }

        /// No record is stored under ``KeyringError/key`` (used where a missing
        /// record is an error rather than `nil`).
        public static let notFound = Code("notFound")
        /// A record failed validation: ``KeyringError/field`` names the field,
        /// ``KeyringError/reason`` says why.
        public static let invalidRecord = Code("invalidRecord")
        /// A setting the program or the environment gave is unusable:
        /// ``KeyringError/setting`` names it, ``KeyringError/reason`` says why.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The store cannot be reached; ``KeyringError/unavailability`` says which part is missing.
        public static let serviceUnavailable = Code("serviceUnavailable")
        /// The collection or item holding the record is locked.
        public static let locked = Code("locked")
        /// The person dismissed the prompt to unlock the collection or item.
        public static let promptDismissed = Code("promptDismissed")
        /// The person dismissed the prompt that confirms storing a new item
        /// (the Secret Service's `CreateItem` prompt): nothing was stored.
        public static let confirmationDismissed = Code("confirmationDismissed")
        /// Nobody answered the unlock prompt shown for ``KeyringError/operation``
        /// within ``KeyringError/seconds``.
        public static let promptTimedOut = Code("promptTimedOut")
        /// ``KeyringError/operation`` did not finish within ``KeyringError/seconds``.
        public static let timedOut = Code("timedOut")
        /// A passphrase or key is needed and none of ``KeyringError/sources`` gave one.
        public static let passphraseRequired = Code("passphraseRequired")
        /// The passphrase or key does not open the store.
        public static let wrongPassphrase = Code("wrongPassphrase")
        /// The stored data cannot be trusted: it was changed, truncated or is of
        /// an unknown version; ``KeyringError/reason`` says how, and
        /// ``KeyringError/place`` says which store or file.
        public static let damaged = Code("damaged")
        /// The file at ``KeyringError/path`` or its folder can be read by
        /// others, or belongs to another user.
        public static let insecurePermissions = Code("insecurePermissions")
        /// Any other failure of the underlying library, with its error domain,
        /// code and message.
        public static let backend = Code("backend")

        /// Whether `error` is a ``KeyringError`` with this code, so that
        /// `catch KeyringError.Code.locked` catches a locked error from any store,
        /// and `case KeyringError.Code.damaged:` matches in a `switch` over an error.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? KeyringError)?.code == code
        }
    }
}
