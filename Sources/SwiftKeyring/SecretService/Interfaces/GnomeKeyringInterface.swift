/// gnome-keyring's interface of its own on the service object,
/// `org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface` (in its
/// `daemon/dbus/gkd-secret-service.c`), which its own tools use: a collection unlocked or
/// created with a password given, no prompt. KeePassXC and KWallet do not have it.
struct GnomeKeyringInterface {
    let object: BusObject

    init(bus: BusConnection, daemon: String) {
        object = BusObject(bus: bus, destination: daemon, path: SecretServiceNames.servicePath)
    }

    /// `UnlockWithMasterPassword(o collection, (oayays) master)`.
    func unlockWithMasterPassword(
        _ collection: String, _ password: SecretTransfer.Encoded, in operation: SecretOperation
    ) throws {
        try object.send(
            SecretServiceNames.gnomeKeyringInternal, "UnlockWithMasterPassword", signature: "o(oayays)", reply: "",
            deadline: operation.deadline, decode: BasicReplies.none
        ) {
            $0.string(collection)
            password.write(into: &$0)
        }.value(in: operation)
    }

    /// `CreateWithMasterPassword(a{sv} properties, (oayays) master) → o collection`, with only a label.
    func createWithMasterPassword(
        label: String, _ password: SecretTransfer.Encoded, in operation: SecretOperation
    ) throws -> String {
        try object.send(
            SecretServiceNames.gnomeKeyringInternal, "CreateWithMasterPassword", signature: "a{sv}(oayays)",
            reply: "o", deadline: operation.deadline, decode: BasicReplies.path
        ) {
            $0.properties([(SecretServiceNames.collectionLabel, "s", { $0.string(label) })])
            password.write(into: &$0)
        }.value(in: operation)
    }
}
