extension Keyring {
    /// Which store `Keyring(service:configuration:)` would use, and why, without opening it.
    ///
    /// With `.auto` this asks the session bus (within a second) whether a Secret
    /// Service is there: if so, the Secret Service; otherwise the encrypted file.
    /// A locked Secret Service is still chosen: locking is reported as
    /// ``KeyringError/locked`` by the calls, never a reason to fall back.
    /// Inside a Flatpak or Snap (`/.flatpak-info` exists or `SNAP_NAME` is set) it first
    /// asks the Secret portal (within two seconds), and chooses libsecret's file when the
    /// portal answers, as libsecret does; ``StoreSelection/keySource`` then says the portal keys it.
    ///
    /// ```swift
    /// let selection = try Keyring.selection(for: KeyringConfiguration())
    /// print(selection.kind, selection.reason)
    /// ```
    /// - Throws: ``KeyringError/invalidConfiguration(setting:reason:)`` when `SWIFT_KEYRING_BACKEND` holds an unknown word.
    public static func selection(for configuration: KeyringConfiguration = KeyringConfiguration()) throws -> StoreSelection {
        try StoreSelector.decide(configuration)
    }
}
