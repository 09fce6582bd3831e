/// What sort of store holds a keyring's records: the Secret Service, the encrypted file,
/// memory, etcd, or a kind of your own.
///
/// A growable list: a store of your own declares its kind with a new value, and no
/// `switch` anywhere needs a case for it.
///
/// ```swift
/// extension StoreKind {
///     static let vault = StoreKind("vault")
/// }
/// ```
public struct StoreKind: Sendable, Hashable, Codable, CustomStringConvertible, RawRepresentable {
    /// The kind's word, as `SWIFT_KEYRING_BACKEND`, the tool's `--backend` and `doctor` spell it.
    public let rawValue: String

    /// A kind named by `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A kind named `word`, such as `vault`.
    public init(_ word: String) {
        self.init(rawValue: word)
    }

    /// The desktop's Secret Service (gnome-keyring, KeePassXC, …): ``SecretServiceStore``.
    public static let secretService = StoreKind("secret-service")
    /// The libgcrypt-encrypted file: ``EncryptedFileStore``.
    public static let file = StoreKind("file")
    /// Records in memory, gone when the process ends: ``MemoryStore``.
    public static let memory = StoreKind("memory")
    /// libsecret's own keyring file, as sandboxed apps keep it: ``LibsecretFileStore``.
    public static let libsecretFile = StoreKind("libsecret-file")
    /// An etcd cluster shared by a fleet: `EtcdStore`, in the `KeyringEtcd` product.
    public static let etcd = StoreKind("etcd")
    /// Keys in the kernel's keyrings, gone at reboot: ``KernelKeyringStore``.
    public static let kernel = StoreKind("kernel")

    /// The kind's word.
    public var description: String { rawValue }

    /// Decodes a kind from its word.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the kind as its word, as `doctor --json` shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
