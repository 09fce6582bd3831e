/// A new item's attributes, read back before anything else is changed: a daemon may keep
/// other text than it was given.
///
/// KWallet 5.103 and KeePassXC 2.7.4 read D-Bus strings with Qt 5's `QString::fromUtf8`,
/// which drops a leading U+FEFF: an item created with the key "\u{FEFF}work" holds the key
/// "work", and their searches drop it too. Unchecked, `set` of such a key reported success,
/// the record could never be read back, and it shadowed the record "work" (two items with
/// that key, the newest read). So what `CreateItem` made is read back at once, and an item
/// whose attributes are not those sent is deleted before the old ones are, and the write is
/// refused, naming the field: nothing stored changes.
extension ItemReplacement {
    /// Throws, after deleting the item at `created`, when its attributes are not `record`'s.
    /// An item another process deleted meanwhile is not checked: it holds nothing to read.
    /// - Throws: `KeyringError.invalidRecord` naming the first field the daemon changed.
    static func checkCreated(
        _ created: String, holds record: StoredRecord, _ client: SecretServiceClient, in operation: SecretOperation
    ) throws {
        let sent = SecretAttributes.all(record)
        guard let stored = try client.attributes(at: [created], in: operation)[created], !sent.areAll(in: stored)
        else { return }
        _ = try client.delete(created, in: operation)
        let changed = sent.values.keys.sorted().first { stored[$0] != sent.values[$0] } ?? "key"
        throw KeyringError.invalidRecord(
            field: changed,
            reason: "is not kept as given by this Secret Service (KWallet and KeePassXC drop a leading U+FEFF), "
                + "so the record could not be read back; nothing was stored")
    }
}
