/// What a store says about itself: its kind, and the facts that tell it apart from
/// another store of that kind (which file, which cluster, which bus).
///
/// ``Keyring`` reports the kind in its ``Keyring/selection``, logs the identity, and
/// `swift-keyring doctor` prints it; none of them switches on a list of stores, so a
/// store of your own is reported as it describes itself.
///
/// ```swift
/// var identity: StoreIdentity {
///     StoreIdentity(kind: .vault, details: [StoreDetail("server", server.absoluteString)])
/// }
/// ```
///
/// No detail may hold a secret: they reach logs and terminals.
public struct StoreIdentity: Sendable, Hashable, CustomStringConvertible {
    /// What sort of store it is.
    public var kind: StoreKind
    /// The facts a person needs to find the records, in the order `doctor` prints them.
    public var details: [StoreDetail]

    /// An identity of `kind` with `details`.
    public init(kind: StoreKind, details: [StoreDetail] = []) {
        self.kind = kind
        self.details = details
    }

    /// `file (path: /home/alice/.local/share/swift-keyring/keyring)`: the kind, then each detail.
    public var description: String {
        details.isEmpty ? kind.rawValue : "\(kind) (\(details.map(\.description).joined(separator: ", ")))"
    }
}

/// One fact of a ``StoreIdentity``, such as the file's path or the etcd endpoints.
public struct StoreDetail: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the fact is, in a word or two: `path`, `endpoints`, `bus`.
    public var label: String
    /// The fact, never a secret.
    public var value: String

    /// A fact named `label`.
    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }

    /// `label: value`.
    public var description: String { "\(label): \(value)" }
}
