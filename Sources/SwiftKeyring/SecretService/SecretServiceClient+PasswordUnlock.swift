internal import CLibSecretShims
package import KeyringCrypto

/// Unlocking a collection with a password the caller gives, with no prompt: what a
/// person at a terminal over SSH needs, where nobody sees a prompt.
///
/// The Secret Service specification has no such call; gnome-keyring has one on an
/// interface of its own, `org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface`
/// (`UnlockWithMasterPassword(o collection, (oayays) master)`, in its
/// `daemon/dbus/gkd-secret-service.c`), which its own tools use. The password travels
/// as a secret of the transfer (encrypted under the key agreed with the daemon, as any
/// secret the store sends), is checked by the daemon against the keyring file, and a
/// wrong one answers `org.gnome.keyring.Error.Denied` and changes nothing. KeePassXC
/// and KWallet do not have the interface.
extension SecretServiceClient {
    private static let internalInterface = "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface"
    /// The D-Bus errors of a daemon without the interface or the method.
    private static let unsupportedErrors: Set<String> = [
        "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.NotSupported",
    ]

    /// Unlocks the collection at `path` with `password`, which stays in secure memory
    /// and is sent only through an encrypted transfer.
    /// - Throws: `KeyringError.wrongPassphrase` when the daemon refuses the password,
    ///   `.serviceUnavailable(reason: .noPasswordUnlock)` naming the daemon when it cannot
    ///   unlock that way (or opens no encrypted transfer), or the call's errors.
    func unlock(_ path: String, password: SecureBytes, deadline: Deadline) throws {
        let operation = "unlock \(path) with a password"
        let transfer = try transfer(deadline: deadline)
        guard transfer.isEncrypted else {
            // A plain transfer would put the password on the bus as it is.
            throw KeyringError.serviceUnavailable(
                reason: .noPasswordUnlock(
                    detail: "\(daemonProgram(deadline: deadline)) opened no encrypted session, "
                        + "and the password is never sent unencrypted"))
        }
        let secret = try password.withBytes { try transfer.encode($0, contentType: "text/plain") }
        do {
            let reply = try bus.call(
                operation, destination: destination, path: SWIFT_KEYRING_SERVICE_PATH,
                interface: Self.internalInterface, method: "UnlockWithMasterPassword",
                arguments: GVariantReading.tuple([g_variant_new_object_path(path), secret]), reply: "()",
                deadline: deadline)
            g_variant_unref(reply)
        } catch let error as KeyringError where error.code == .backend {
            if error.backendDomain == "org.gnome.keyring.Error.Denied" { throw KeyringError.wrongPassphrase }
            guard let name = error.backendDomain, Self.unsupportedErrors.contains(name) else { throw error }
            throw KeyringError.serviceUnavailable(
                reason: .noPasswordUnlock(
                    detail: "\(daemonProgram(deadline: deadline)) cannot unlock a collection with a password given to it "
                        + "(only gnome-keyring can); unlock it in the daemon's own window"))
        }
    }

    /// The program serving the Secret Service, such as `keepassxc (pid 812)`, for messages.
    private func daemonProgram(deadline: Deadline) -> String {
        let owner = try? bus.secretServiceOwner(deadline: Deadline(deadline.timeout))
        return owner.map { "the Secret Service daemon, \($0)," } ?? "the Secret Service daemon"
    }
}
