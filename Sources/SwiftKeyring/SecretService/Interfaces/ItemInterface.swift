/// `org.freedesktop.Secret.Item`, one item of the daemon: the methods and properties the
/// client uses. No property is ever set (see `ItemReplacement`), and its secret is read
/// with the service's `GetSecrets`, which reads several in one call.
struct ItemInterface {
    let object: BusObject

    /// `Delete() → o prompt` (`/` for none); `nil` when the item is gone already.
    func delete(in operation: SecretOperation) throws -> String? {
        try object.send(
            SecretServiceNames.item, "Delete", reply: "o", deadline: operation.deadline, decode: BasicReplies.path
        ).valueUnlessVanished(in: operation)
    }

    /// `SetSecret((oayays) secret)`; `false` when the item is gone.
    func setSecret(_ secret: SecretTransfer.Encoded, in operation: SecretOperation) throws -> Bool {
        try object.send(
            SecretServiceNames.item, "SetSecret", signature: "(oayays)", reply: "", deadline: operation.deadline,
            decode: BasicReplies.none
        ) { secret.write(into: &$0) }.valueUnlessVanished(in: operation) != nil
    }

    /// The `Attributes` property, sent: its reply reads as the table, or the type the daemon sent instead.
    func attributes(deadline: Deadline) throws -> PendingReply<SecretReplies.Attributes> {
        try object.properties.get(
            SecretServiceNames.item, "Attributes", deadline: deadline, decode: SecretReplies.attributes)
    }

    /// Every property of the interface at once (`GetAll`): its label and attributes; `nil` when the item is gone.
    func properties(in operation: SecretOperation) throws -> SecretReplies.ItemProperties? {
        try object.properties.getAll(
            SecretServiceNames.item, deadline: operation.deadline, decode: SecretReplies.itemProperties
        ).valueUnlessVanished(in: operation)
    }
}
