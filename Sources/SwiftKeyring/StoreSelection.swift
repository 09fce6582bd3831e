/// The store a ``Keyring`` uses, and why: logged at start and shown by `swift-keyring doctor`.
public struct StoreSelection: Sendable, Hashable {
    /// What sort of store is in use, as the store itself says (``CredentialStore/identity``).
    public var kind: StoreKind
    /// One sentence on why this store was chosen.
    public var reason: String

    /// Creates a selection record.
    public init(kind: StoreKind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
