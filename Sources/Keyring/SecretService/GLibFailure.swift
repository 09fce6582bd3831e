internal import CLibSecretShims

/// The one place where a `GError` becomes a `KeyringError`.
///
/// GLib and libsecret messages name objects and D-Bus methods, never a
/// secret, so they are kept as the reason; the error is never given a
/// secret to report.
enum GLibFailure {
    private static let lockedErrorName = "org.freedesktop.Secret.Error.IsLocked"
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

        if timedOut || matches(domain, code, g_io_error_quark(), G_IO_ERROR_TIMED_OUT.rawValue) {
            return .timedOut(operation: operation, seconds: seconds)
        }
        if phase == .connect {
            return .serviceUnavailable(reason: "no session bus: \(message)")
        }
        if remoteName == lockedErrorName
            || matches(domain, code, secret_error_get_quark(), SECRET_ERROR_IS_LOCKED.rawValue)
            // gnome-keyring refuses CreateItem in a locked collection with a generic error.
            || message.contains("locked collection") {
            return .locked
        }
        if matches(domain, code, g_io_error_quark(), G_IO_ERROR_CANCELLED.rawValue) {
            // Only our timer and libsecret's prompt handling cancel; the timer was ruled out above.
            return .promptDismissed
        }
        if remoteName == serviceUnknownErrorName
            || matches(domain, code, g_dbus_error_quark(), G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue)
            || matches(domain, code, g_dbus_error_quark(), G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue)
            || matches(domain, code, g_dbus_error_quark(), G_DBUS_ERROR_NO_REPLY.rawValue) {
            return .serviceUnavailable(reason: "no Secret Service daemon: \(message)")
        }
        if matches(domain, code, g_io_error_quark(), G_IO_ERROR_CLOSED.rawValue)
            || matches(domain, code, g_dbus_error_quark(), G_DBUS_ERROR_DISCONNECTED.rawValue) {
            return .serviceUnavailable(reason: "no session bus: \(message)")
        }
        let domainName = g_quark_to_string(domain).map { String(cString: $0) } ?? "unknown"
        return .backend(domain: remoteName ?? domainName, code: Int(code), message: message)
    }

    private static func matches(_ domain: GQuark, _ code: gint, _ expectedDomain: GQuark, _ expectedCode: UInt32) -> Bool {
        domain == expectedDomain && code == gint(bitPattern: expectedCode)
    }
}
