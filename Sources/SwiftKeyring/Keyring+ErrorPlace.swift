extension Keyring {
    /// The place the keyring's errors name: its store.
    var errorPlace: KeyringError.Place { KeyringError.Place(store: store.identity.kind) }

    /// Runs a call of the store, so that every `KeyringError` passing out of it
    /// names the store ("the etcd record is damaged"): errors are placed where
    /// they leave the store, because the code that throws them (the sealed
    /// record format, say) is shared by several stores and cannot know which.
    func fromStore<T>(_ body: () throws -> T) rethrows -> T {
        try KeyringError.placing(in: errorPlace, body)
    }
}
