internal import CLibSecretShims

/// The one place where a `GError` becomes a `KeyringError`.
///
/// Decided by the error's domain and code, and by the D-Bus error name a
/// remote peer sent (`g_dbus_error_get_remote_error`), never by its message.
/// GLib and libsecret messages name objects and D-Bus methods, never a
/// secret, so they are kept as the detail; the error is never given a
/// secret to report.
enum GLibFailure {
    /// What a failed call says about the other side, as the library tells it.
    enum Condition: Equatable {
        /// Our timer, or the call's own D-Bus timeout, ended the wait.
        case timedOut
        /// The item or collection is locked (`org.freedesktop.Secret.Error.IsLocked`).
        case locked
        /// The call was cancelled by someone other than our timer: libsecret's prompt handling.
        case cancelled
        /// Nobody owns the name called, and the bus cannot start anybody for it
        /// (`ServiceUnknown`, `NameHasNoOwner`).
        case noOwner
        /// The peer left the bus before it answered (`NoReply`).
        case peerGone
        /// Our own connection to the bus closed (`Disconnected`, a closed stream).
        case busClosed
        /// Anything else: a `.backend` error.
        case other

        init(domain: GQuark, code: gint, remoteName: String?) {
            func matches(_ expectedDomain: GQuark, _ expectedCode: UInt32) -> Bool {
                domain == expectedDomain && code == gint(bitPattern: expectedCode)
            }
            let dbus = g_dbus_error_quark()
            let io = g_io_error_quark()
            if matches(io, G_IO_ERROR_TIMED_OUT.rawValue) {
                self = .timedOut
            } else if remoteName == GLibFailure.lockedErrorName
                || matches(secret_error_get_quark(), SECRET_ERROR_IS_LOCKED.rawValue)
            {
                self = .locked
            } else if matches(io, G_IO_ERROR_CANCELLED.rawValue) {
                self = .cancelled
            } else if remoteName == GLibFailure.serviceUnknownErrorName || matches(dbus, G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue)
                || matches(dbus, G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue)
            {
                self = .noOwner
            } else if matches(dbus, G_DBUS_ERROR_NO_REPLY.rawValue) {
                self = .peerGone
            } else if matches(io, G_IO_ERROR_CLOSED.rawValue) || matches(dbus, G_DBUS_ERROR_DISCONNECTED.rawValue) {
                self = .busClosed
            } else {
                self = .other
            }
        }
    }

    /// The Secret Service's own error name, which GLib does not map to a code of its own.
    private static let lockedErrorName = "org.freedesktop.Secret.Error.IsLocked"
    /// The bus's name for "nobody owns that name", for when it arrives unmapped.
    private static let serviceUnknownErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"

    /// The `KeyringError` for `error`, raised by `operation`; `seconds` is the
    /// timeout to report when the call timed out (`timedOut`: our timer cancelled it).
    static func keyringError(
        _ error: UnsafeMutablePointer<GError>,
        operation: String,
        seconds: Double,
        timedOut: Bool,
        phase: GLibCall.Phase
    ) -> KeyringError {
        let domain = error.pointee.domain
        let code = error.pointee.code
        let remoteName = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        g_dbus_error_strip_remote_error(error)
        let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
        let condition = timedOut ? .timedOut : Condition(domain: domain, code: code, remoteName: remoteName)

        if phase == .connect && condition != .timedOut {
            return .serviceUnavailable(reason: .noSessionBus(detail: message))
        }
        switch condition {
        case .timedOut:
            return .timedOut(operation: operation, seconds: seconds)
        case .locked:
            return .locked
        case .cancelled:
            // Only our timer and libsecret's prompt handling cancel; the timer was ruled out above.
            return .promptDismissed
        case .noOwner:
            return .serviceUnavailable(reason: .noDaemon(detail: message))
        case .peerGone:
            return .serviceUnavailable(reason: .daemonGone(detail: message))
        case .busClosed:
            return .serviceUnavailable(reason: .noSessionBus(detail: message))
        case .other:
            let domainName = g_quark_to_string(domain).map { String(cString: $0) } ?? "unknown"
            return .backend(domain: remoteName ?? domainName, code: Int(code), message: message)
        }
    }
}
