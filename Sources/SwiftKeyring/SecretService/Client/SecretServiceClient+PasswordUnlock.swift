internal import KeyringCrypto

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
        var secret = try encrypted(password, deadline: deadline)
        defer { secret.wipe() }
        do {
            _ = try unsupportedNamed(deadline) {
                try bus.call(
                    "unlock \(path) with a password", destination: destination, path: SecretServiceNames.servicePath,
                    interface: SecretServiceNames.gnomeKeyringInternal, method: "UnlockWithMasterPassword",
                    signature: "o(oayays)", reply: "", deadline: deadline, decode: BasicReplies.none
                ) {
                    $0.string(path)
                    secret.write(into: &$0)
                }
            }
        } catch let error as KeyringError where error.backendDomain == "org.gnome.keyring.Error.Denied" {
            throw KeyringError.wrongPassphrase
        }
    }

    /// Creates a collection labelled `label`, locked with `password`, without a prompt
    /// (`CreateWithMasterPassword`, as `gnome-keyring-daemon --unlock` creates the login
    /// keyring when there is none), and makes it the default (`SetAlias`); returns its path.
    /// - Throws: `.serviceUnavailable(reason: .noPasswordUnlock)` naming a daemon that cannot, or the calls' errors.
    func createDefault(label: String, password: SecureBytes, deadline: Deadline) throws -> String {
        var secret = try encrypted(password, deadline: deadline)
        defer { secret.wipe() }
        let reply = try unsupportedNamed(deadline) {
            try bus.call(
                "create the default collection with a password", destination: destination,
                path: SecretServiceNames.servicePath, interface: SecretServiceNames.gnomeKeyringInternal,
                method: "CreateWithMasterPassword", signature: "a{sv}(oayays)", reply: "o", deadline: deadline,
                decode: BasicReplies.path
            ) {
                $0.properties([(SecretServiceNames.collectionLabel, "s", { $0.string(label) })])
                secret.write(into: &$0)
            }
        }
        let path = reply
        try bus.call(
            "make \(path) the default collection", destination: destination, path: SecretServiceNames.servicePath,
            interface: SecretServiceNames.service, method: "SetAlias", signature: "so", reply: "", deadline: deadline,
            decode: BasicReplies.none
        ) {
            $0.string("default")
            $0.string(path)
        }
        return path
    }

    /// `password` as a secret of an encrypted transfer; never a plain one.
    private func encrypted(_ password: SecureBytes, deadline: Deadline) throws -> SecretTransfer.Encoded {
        let transfer = try transfer(deadline: deadline)
        guard transfer.isEncrypted else {
            // A plain transfer would put the password on the bus as it is.
            throw KeyringError.serviceUnavailable(
                reason: .noPasswordUnlock(
                    detail: "\(daemonProgram(deadline: deadline)) opened no encrypted session, "
                        + "and the password is never sent unencrypted"))
        }
        return try password.withBytes { try transfer.encode($0, contentType: "text/plain") }
    }

    /// Runs `call`, turning the answer of a daemon without gnome-keyring's interface into `.noPasswordUnlock`.
    private func unsupportedNamed<Result>(_ deadline: Deadline, _ call: () throws -> Result) throws -> Result {
        do {
            return try call()
        } catch let error as KeyringError where error.code == .backend {
            guard let name = error.backendDomain, Self.unsupportedErrors.contains(name) else { throw error }
            throw KeyringError.serviceUnavailable(
                reason: .noPasswordUnlock(
                    detail: "\(daemonProgram(deadline: deadline)) cannot unlock or create a collection with a password "
                        + "given to it (only gnome-keyring can); use the daemon's own window"))
        }
    }

    /// The program serving the Secret Service, such as `keepassxc (pid 812)`, for messages.
    private func daemonProgram(deadline: Deadline) -> String {
        let owner = try? bus.secretServiceOwner(deadline: Deadline(deadline.timeout))
        return owner.map { "the Secret Service daemon, \($0)," } ?? "the Secret Service daemon"
    }
}
