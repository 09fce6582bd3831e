import Logging

extension Logger {
    /// The logger the library uses when the caller gives none: it drops every line,
    /// so a program that never asked for the library's log is not sent it.
    ///
    /// swift-log's advice for libraries is to take the caller's `Logger` rather than
    /// make one with `Logger(label:)`, which would log through whatever the program
    /// bootstrapped; pass yours to ``Keyring``, ``SecretServiceStore``, `Session` or
    /// `SecretStore` to see their lines.
    static let keyringSilent = Logger(label: "swift-keyring") { _ in SwiftLogNoOpLogHandler() }
}
