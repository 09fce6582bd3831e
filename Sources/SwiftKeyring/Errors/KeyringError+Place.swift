extension KeyringError {
    /// Where a failure happened: which store, or which file of the login
    /// session, so that a message says "the etcd record is damaged" and not
    /// "the keyring file" when etcd failed.
    ///
    /// The places are static members of a struct, so more can be added. A store
    /// of your own names its place with ``init(_:)``; ``init(store:)`` finds
    /// the place of a ``CredentialStore`` from its ``StoreIdentity/kind``.
    public struct Place: Hashable, Sendable, CustomStringConvertible {
        /// The place's stable name: the store's kind (`secret-service`,
        /// `file`, `etcd`, `memory`), or `session-state-file`.
        public let name: String
        /// The store as a sentence names it, such as "the etcd keyring".
        let store: String
        /// What holds the data that can be damaged, such as "etcd record".
        let item: String

        private init(name: String, store: String, item: String) {
            self.name = name
            self.store = store
            self.item = item
        }

        /// A place of your own, such as the name of a store you wrote:
        /// messages call it "the `name` store" and its data "`name` record".
        ///
        /// - Parameter name: A short name, such as `vault`.
        public init(_ name: String) {
            self.init(name: name, store: "the \(name) store", item: "\(name) record")
        }

        /// The place of a store of `kind`: one of the places below for this
        /// package's stores, else ``init(_:)`` with the kind's name.
        ///
        /// - Parameter kind: The store's kind, such as ``StoreKind/etcd``.
        public init(store kind: StoreKind) {
            let known: [Place] = [.secretService, .keyringFile, .etcd, .memory, .libsecretFile, .kernel]
            self = known.first { $0.name == kind.rawValue } ?? Place(kind.rawValue)
        }

        /// The place's stable name.
        public var description: String { name }

        /// The Secret Service (``SecretServiceStore``), such as gnome-keyring or KeePassXC.
        public static let secretService = Place(
            name: "secret-service", store: "the Secret Service", item: "Secret Service item")
        /// The encrypted keyring file (``EncryptedFileStore``).
        public static let keyringFile = Place(name: "file", store: "the keyring file", item: "keyring file")
        /// libsecret's own keyring file (``LibsecretFileStore``), as Flatpak and Snap apps keep it.
        public static let libsecretFile = Place(
            name: "libsecret-file", store: "the libsecret keyring file", item: "libsecret keyring file")
        /// The etcd cluster (the `KeyringEtcd` module's `EtcdStore`).
        public static let etcd = Place(name: "etcd", store: "the etcd keyring", item: "etcd record")
        /// The in-memory store (``MemoryStore``).
        public static let memory = Place(name: "memory", store: "the in-memory keyring", item: "in-memory record")
        /// The kernel's keyrings (``KernelKeyringStore``).
        public static let kernel = Place(name: "kernel", store: "the kernel keyring", item: "kernel keyring record")
        /// The login session's state file (the `KeyringSession` module).
        public static let sessionStateFile = Place(
            name: "session-state-file", store: "the session state file", item: "session state file")

        /// A file a secret is read from (a key, passphrase or password file), named as a
        /// message names it, so "Refusing to use PATH (the key file)" says which file to fix.
        package static func secretFile(_ what: String) -> Place {
            Place(name: "secret-file", store: what, item: what)
        }

        /// Equal names.
        public static func == (lhs: Place, rhs: Place) -> Bool { lhs.name == rhs.name }

        /// Hashes the name, as `==` compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
}
