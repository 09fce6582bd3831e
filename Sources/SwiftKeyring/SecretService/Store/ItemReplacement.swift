/// How `SecretServiceStore.save` stores a record so that exactly one item holds
/// it afterwards, on gnome-keyring and KeePassXC alike.
///
/// CreateItem's `replace` flag is never used: KeePassXC answers it with a
/// confirmation dialog (a call that hangs when nobody sees it) and matches it
/// by a subset of the attributes, so it could overwrite a foreign item carrying
/// some of ours. Instead:
///
/// - When an item of ours holds the record's identity (`tag`, `service`, `key`,
///   `kind`) with the same label and attributes, only its secret is set
///   (`Item.SetSecret`). This common replace (same username, URL and flags, new
///   password) is one write, which matters on gnome-keyring: it rewrites its
///   whole file on every change.
/// - Otherwise a new item is created, without `replace`, and the items of ours
///   that held the identity before are deleted after it. Attributes and label
///   are never changed in place: a `Properties.Set` on an item that another
///   process deletes while the call waits in gnome-keyring's queue makes GLib
///   (2.74 to at least 2.80, whose set-property dispatch alone does not check that
///   the object is still exported) call through the freed item's table, and the
///   daemon dies of a segmentation fault. Methods such as `SetSecret` and
///   `Delete`, and property reads, get a "no such object" answer instead.
/// - Every other item of ours with that identity is then deleted.
///
/// When several items hold the identity (another program left duplicates, or
/// two processes raced to create the first), the one kept is the greatest path
/// in `precedes` order. Every process agrees on that order, and each deletes
/// only items it saw beside a greater one, so the greatest survives (never zero
/// items), and every other is deleted by someone (never two for long). On
/// gnome-keyring, whose paths are numbered, the greatest is also the newest.
///
/// An item that another process deletes between our search and our write is
/// absent: the record is created, and a deletion of it counts as done.
///
/// Nothing is overwritten or deleted before its attributes are read back and
/// found to carry our tag and the identity (see `SecretAttributes.areAll(in:)`).
enum ItemReplacement {
    /// Stores `record`; afterwards exactly one item of ours holds its identity.
    ///
    /// Finding the items (which may wait for an unlock prompt) can be cancelled; the
    /// writes, once begun, cannot: a `CreateItem` or `SetSecret` cut short may still
    /// take effect in the daemon, and a clean-up cut short leaves two items.
    /// - Throws: `KeyringError.locked` when a matching item stays locked, or another store error.
    static func save(_ record: StoredRecord, _ client: SecretServiceClient, in operation: SecretOperation) throws {
        let identity = SecretAttributes.identity(record.id)
        // Every save sends a secret: the session opens with the search, in one write.
        var existing = try client.unlockedPaths(identity, in: operation, openingSession: true)
        if existing.count > 1 {
            existing = try ours(existing, identity, client, in: operation)
        }
        try OperationCancellation.check()
        try OperationCancellation.withoutCancellation {
            try write(record, identity, existing, client, in: operation)
        }
    }

    /// The writes of `save`, given the items that hold `identity` now (read back
    /// as ours when there are several; a single one is read back here).
    private static func write(
        _ record: StoredRecord, _ identity: SecretAttributes, _ existing: [String], _ client: SecretServiceClient,
        in operation: SecretOperation
    ) throws {
        // The items of ours that held the record before this write, to delete once it is stored.
        var stale: [String] = []
        if let keeper = existing.max(by: precedes),
            let state = try client.state(at: keeper, in: operation),
            identity.areAll(in: state.attributes)
        {
            stale = existing
            if SecretAttributes.all(record).areAll(in: state.attributes) && state.label == SecretLabel.label(for: record),
                try client.setSecret(record, at: keeper, in: operation)
            {
                for path in existing where path != keeper {
                    try delete(path, client, in: operation)
                }
                return
            }
            // Other attributes or label, or the item vanished since the search
            // (another process removed it): a new item, as if none had been found.
        }
        // A locked KeePassXC finds nothing at all (it has no database open), so an
        // empty search proves no item exists only while the collection is unlocked.
        // The collection is found (or, with none, created) here, before the item is.
        let hidden =
            existing.isEmpty
            ? try client.isLocked(client.collectionForWriting(in: operation).path, in: operation)
            : false
        let created = try client.createItem(record, in: operation)
        try checkCreated(created, holds: record, client, in: operation)
        // The old items go before the search below, so that the greatest path, which
        // that search keeps, is never one of them (KeePassXC's paths are not in order).
        for path in stale {
            try delete(path, client, in: operation)
        }
        // Searched again rather than trusting the first search: another process
        // may have created its own item meanwhile, and one of the two must go.
        let after = try ours(client.unlockedPaths(identity, in: operation), identity, client, in: operation)
        // When the first search could not see, what it missed is older than ours: keep ours.
        guard let keeper = hidden ? created : after.max(by: precedes) else { return }
        for path in after where path != keeper {
            try delete(path, client, in: operation)
        }
    }

    /// Deletes a stale duplicate; one that is already gone is no failure: two
    /// racing saves see the same duplicates, and both delete them.
    private static func delete(_ path: String, _ client: SecretServiceClient, in operation: SecretOperation) throws {
        _ = try client.delete(path, in: operation)
    }

    /// Those of `paths` whose attributes, read back, carry every one of `attributes`.
    static func ours(
        _ paths: [String], _ attributes: SecretAttributes, _ client: SecretServiceClient, in operation: SecretOperation
    ) throws -> [String] {
        let read = try client.attributes(at: paths, in: operation)
        return paths.filter { read[$0].map(attributes.areAll(in:)) ?? false }
    }

    /// The order every process uses to pick the item it keeps: shorter paths
    /// first, then by characters, so gnome-keyring's numbered paths (`…/login/9`,
    /// `…/login/10`) sort by number, which is their order of creation.
    static func precedes(_ left: String, _ right: String) -> Bool {
        (left.utf8.count, left) < (right.utf8.count, right)
    }
}
