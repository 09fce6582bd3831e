/// `org.freedesktop.Secret.Collection`, one collection of the daemon: the methods and
/// properties the client uses (`SearchItems` is the service's, which splits the items by
/// lock state; `Delete` is never called: the store deletes items, never collections).
struct CollectionInterface {
    let object: BusObject

    /// `CreateItem(a{sv} properties, (oayays) secret, b replace) → (o item, o prompt)`, with
    /// `replace` off (see `ItemReplacement` for why).
    func createItem(
        label: String, attributes: [String: String], secret: SecretTransfer.Encoded, in operation: SecretOperation
    ) throws -> SecretReplies.Created {
        try object.send(
            SecretServiceNames.collection, "CreateItem", signature: "a{sv}(oayays)b", reply: "oo",
            deadline: operation.deadline, decode: SecretReplies.created
        ) { arguments in
            arguments.properties([
                (SecretServiceNames.itemLabel, "s", { $0.string(label) }),
                (SecretServiceNames.itemAttributes, "a{ss}", { $0.stringTable(attributes) }),
            ])
            secret.write(into: &arguments)
            arguments.boolean(false)
        }.value(in: operation)
    }

    /// The `Locked` property; one sent as anything but a boolean is an error, never read as unlocked.
    func isLocked(in operation: SecretOperation) throws -> Bool {
        let value = try object.properties.get(
            SecretServiceNames.collection, "Locked", deadline: operation.deadline, decode: BasicReplies.property
        ).value(in: operation)
        guard case .boolean(let locked) = value else {
            throw SecretReplies.wrongType("the collection's Locked", value.type, "b")
        }
        return locked
    }

    /// The `Label` property; `nil` when the collection vanished or its label is not a string.
    func label(in operation: SecretOperation) throws -> String? {
        let value = try object.properties.get(
            SecretServiceNames.collection, "Label", deadline: operation.deadline, decode: BasicReplies.property
        ).valueUnlessVanished(in: operation)
        guard case .string(let label) = value else { return nil }
        return label
    }
}
