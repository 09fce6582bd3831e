internal import KeyringCrypto

/// Unlocking a collection with a password the caller gives, with no prompt: what a
/// person at a terminal over SSH needs, where nobody sees a prompt.
///
/// The Secret Service specification has no such call; gnome-keyring has one on an
/// interface of its own (`GnomeKeyringInterface`). The password travels
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
    func unlock(_ path: String, password: SecureBytes, in operation: SecretOperation) throws {
        var secret = try encrypted(password, deadline: operation.deadline)
        defer { secret.wipe() }
        do {
            try unsupportedNamed(operation.deadline) {
                try gnomeKeyring.unlockWithMasterPassword(
                    path, secret, in: operation.step("unlock \(path) with a password"))
            }
        } catch let error as KeyringError where error.backendDomain == "org.gnome.keyring.Error.Denied" {
            throw KeyringError.wrongPassphrase
        }
    }

    /// Creates a collection labelled `label`, locked with `password`, without a prompt
    /// (`CreateWithMasterPassword`, as `gnome-keyring-daemon --unlock` creates the login
    /// keyring when there is none), and makes it the default (`SetAlias`); returns its path.
    /// - Throws: `.serviceUnavailable(reason: .noPasswordUnlock)` naming a daemon that cannot, or the calls' errors.
    func createDefault(label: String, password: SecureBytes, in operation: SecretOperation) throws -> String {
        var secret = try encrypted(password, deadline: operation.deadline)
        defer { secret.wipe() }
        let path = try unsupportedNamed(operation.deadline) {
            try gnomeKeyring.createWithMasterPassword(
                label: label, secret, in: operation.step("create the default collection with a password"))
        }
        try service.setAlias("default", to: path, in: operation.step("make \(path) the default collection"))
        return path
    }

    /// gnome-keyring's own interface on this client's daemon.
    private var gnomeKeyring: GnomeKeyringInterface { GnomeKeyringInterface(bus: bus, daemon: destination) }

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
