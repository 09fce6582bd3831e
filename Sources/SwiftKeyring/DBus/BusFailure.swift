/// The one place where a D-Bus error a peer or the bus sent becomes a `KeyringError`.
///
/// Decided by the error's name, never by its message. Daemons' messages name objects
/// and methods, never a secret, so they are kept as the detail.
enum BusFailure {
    /// The names that say an object is gone (an item deleted since the search): gnome-keyring
    /// answers UnknownObject or UnknownMethod, KeePassXC (through Qt D-Bus)
    /// UnknownInterface, some daemons the Secret Service's own NoSuchObject.
    static let vanishedObject: Set<String> = [
        "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.UnknownInterface", SecretServiceNames.noSuchObjectError,
    ]

    /// The domain of the client's own failure to use what a daemon or the bus answered (a
    /// reply of another type than the specification gives, a name or path that is none, a
    /// secret that does not decrypt): a name of ours, so that no error reads as if a daemon
    /// had sent it. A daemon's or the bus's own errors keep their D-Bus names.
    static let invalidReplyDomain = "swift-keyring.Error.InvalidReply"
    /// The domain of a message the client refuses to read (longer than its cap, or of a
    /// byte order or version it does not know), which ends the connection.
    static let limitsExceededDomain = "swift-keyring.Error.LimitsExceeded"

    /// The client's error for an answer it cannot use; `message` says what was wrong.
    static func invalidReply(_ message: String) -> KeyringError {
        .backend(domain: invalidReplyDomain, code: 0, message: message)
    }

    /// Whether `reply` is an error saying the object called is gone.
    static func isVanished(_ reply: BusMessage) -> Bool {
        reply.errorName.map(vanishedObject.contains) ?? false
    }

    /// The `KeyringError` for the error `reply`.
    static func keyringError(_ reply: BusMessage) -> KeyringError {
        let name = reply.errorName ?? "org.freedesktop.DBus.Error.Failed"
        let message = reply.errorMessage
        switch name {
        case SecretServiceNames.isLockedError:
            return .locked
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .serviceUnavailable(reason: .noDaemon(detail: message))
        case "org.freedesktop.DBus.Error.NoReply":
            // What the bus answers for a call whose peer left without answering.
            return .serviceUnavailable(reason: .daemonGone(detail: message))
        case "org.freedesktop.DBus.Error.Disconnected":
            return .serviceUnavailable(reason: .noSessionBus(detail: message))
        default:
            return .backend(domain: name, code: 0, message: message)
        }
    }
}
