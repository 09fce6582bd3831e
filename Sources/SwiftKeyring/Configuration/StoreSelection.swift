/// The store a ``Keyring`` uses, and why: logged at start and shown by `swift-keyring doctor`.
public struct StoreSelection: Sendable, Hashable {
    /// What sort of store is in use, as the store itself says (``CredentialStore/identity``).
    public var kind: StoreKind
    /// One sentence on why this store was chosen.
    public var reason: String
    /// Which secret keys the store, and why, for a store whose key the decision chooses
    /// (libsecret's file: the Secret portal, or the encrypted file's sources); `nil` otherwise.
    public var keySource: String? { libsecretKey?.description }
    /// The key source chosen for libsecret's file, which `open` uses.
    var libsecretKey: LibsecretKeySource?
    /// Whether libsecret's file is keyed by the Secret portal: no person types its password,
    /// so `swift-keyring unlock` has nothing to keep.
    package var keyedByPortal: Bool { libsecretKey?.origin == .portal }

    /// Creates a selection record.
    public init(kind: StoreKind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
