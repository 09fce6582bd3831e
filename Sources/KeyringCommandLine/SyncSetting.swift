import SwiftKeyring

/// Whether the tool's keyring has a shared store for the records with the sync flag, and why:
/// what `doctor` reports and what `KeyringOpener` opens.
package struct SyncSetting: Sendable, Equatable {
    /// The kind of the shared store; `nil` when sharing is off.
    package var store: StoreKind?
    /// One sentence on why sharing is on or off.
    package var reason: String

    package init(store: StoreKind?, reason: String) {
        self.store = store
        self.reason = reason
    }

    /// Whether records with the sync flag live in a shared store.
    package var isOn: Bool { store != nil }
}
