extension KeyringError {
    /// Why the store cannot be reached: the ``Kind`` a program matches on, and
    /// the detail the system gave, for people.
    ///
    /// Like ``KeyringError/Code``, the kinds are static members of a struct, so
    /// a new one (as ``Kind/noCluster`` was) breaks no `switch` that has a `default`.
    ///
    /// ```swift
    /// switch error.unavailability?.kind {
    /// case .noSessionBus?, .noDaemon?:
    ///     // no Secret Service here: fall back to the encrypted file
    /// case .noKeyringFile?:
    ///     print("create \(error.path ?? "the file") first")
    /// default:
    ///     throw error
    /// }
    /// ```
    public struct Unavailability: Sendable, Hashable, CustomStringConvertible {
        /// Which part is missing.
        public let kind: Kind
        /// What the system said, without the kind: the detail, or the path.
        public let detail: String

        private init(_ kind: Kind, _ detail: String) {
            self.kind = kind
            self.detail = detail
        }

        /// The path that is missing, for ``Kind/noKeyringFile`` and ``Kind/noFolder``.
        public var path: String? { kind.detailIsPath ? detail : nil }

        /// The words after "… is unavailable:", such as `no session bus: …`.
        public var description: String { kind.describe(detail) }

        /// There is no session bus to talk to, or it closed the connection.
        public static func noSessionBus(detail: String) -> Unavailability { Unavailability(.noSessionBus, detail) }
        /// Nobody owns `org.freedesktop.secrets` and the bus cannot start a daemon for it.
        public static func noDaemon(detail: String) -> Unavailability { Unavailability(.noDaemon, detail) }
        /// The Secret Service daemon left the bus while a call waited for its answer.
        public static func daemonGone(detail: String) -> Unavailability { Unavailability(.daemonGone, detail) }
        /// The encrypted file store was asked not to create its file, and there is none at `path`.
        public static func noKeyringFile(path: String) -> Unavailability { Unavailability(.noKeyringFile, path) }
        /// The folder that holds (or should hold) the keyring file is not there.
        public static func noFolder(path: String) -> Unavailability { Unavailability(.noFolder, path) }
        /// No member of the etcd cluster could serve the call.
        public static func noCluster(detail: String) -> Unavailability { Unavailability(.noCluster, detail) }
        /// The shared store of a two-store ``Keyring`` did not answer within the call's bound;
        /// `detail` names the store (its ``StoreIdentity``, the cluster's endpoints for etcd).
        public static func noSharedStore(detail: String) -> Unavailability { Unavailability(.noSharedStore, detail) }
        /// The Secret Service has no collection to read or write: the collection named
        /// (by alias or label) does not exist, or there is no default collection, the
        /// daemon created none, and falling back to the `session` collection was not asked for.
        public static func noCollection(detail: String) -> Unavailability { Unavailability(.noCollection, detail) }
        /// The Secret Service daemon cannot unlock a collection with a password given to
        /// it (only gnome-keyring can); `detail` names the daemon.
        public static func noPasswordUnlock(detail: String) -> Unavailability { Unavailability(.noPasswordUnlock, detail) }
        /// A shared library the store needs could not be loaded; `detail` names it
        /// (such as `libgcrypt.so.20`) and says why, as the dynamic loader did.
        public static func libraryMissing(detail: String) -> Unavailability { Unavailability(.libraryMissing, detail) }
        /// The Secret portal (xdg-desktop-portal's `org.freedesktop.portal.Secret`) gave no key for
        /// libsecret's file; `detail` says why (no portal, no Secret backend, the backend failed).
        public static func noSecretPortal(detail: String) -> Unavailability { Unavailability(.noSecretPortal, detail) }
    }
}

extension KeyringError.Unavailability {
    /// Which part of the way to the store is missing, a growable set of kinds.
    ///
    /// A kind matches a thrown error directly:
    /// `catch KeyringError.Unavailability.Kind.noSessionBus`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name, such as `noSessionBus`.
        public let name: String
        private let before: String
        private let after: String
        fileprivate let detailIsPath: Bool

        private init(_ name: String, _ before: String, _ after: String = "", detailIsPath: Bool = false) {
            self.name = name
            self.before = before
            self.after = after
            self.detailIsPath = detailIsPath
        }

        /// The kind's stable name, such as `noSessionBus`.
        public var description: String { name }

        fileprivate func describe(_ detail: String) -> String {
            before + detail + after
        }

        /// There is no session bus to talk to, or it closed the connection:
        /// no `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus`, an address
        /// nobody listens at, or an `autolaunch:` address.
        public static let noSessionBus = Kind("noSessionBus", "no session bus: ")
        /// The bus answers but nobody owns `org.freedesktop.secrets` and the bus
        /// cannot start a daemon for it.
        public static let noDaemon = Kind("noDaemon", "no Secret Service daemon: ")
        /// The Secret Service daemon left the bus while a call waited for its answer.
        public static let daemonGone = Kind("daemonGone", "the Secret Service daemon went away: ")
        /// The encrypted file store was asked not to create its file, and there is none.
        public static let noKeyringFile = Kind("noKeyringFile", "there is no keyring file at ", detailIsPath: true)
        /// The folder that holds (or should hold) the keyring file is not there.
        public static let noFolder = Kind("noFolder", "the keyring folder ", " does not exist", detailIsPath: true)
        /// No member of the etcd cluster could serve the call: every endpoint
        /// refused or failed, or the cluster has lost its quorum.
        public static let noCluster = Kind("noCluster", "no etcd member could serve the call: ")
        /// The shared store of a two-store ``Keyring`` (``Keyring/syncStore``) did not answer
        /// within the call's bound, as a cluster that lost its quorum does not.
        public static let noSharedStore = Kind("noSharedStore", "the shared store did not answer: ")
        /// The Secret Service has no collection to read or write: the named one does not
        /// exist, or there is no default collection and no fallback was asked for.
        public static let noCollection = Kind("noCollection", "no collection: ")
        /// The daemon cannot unlock a collection with a password sent to it, as
        /// `swift-keyring unlock` does: only gnome-keyring can (KeePassXC and KWallet cannot).
        public static let noPasswordUnlock = Kind("noPasswordUnlock", "unlocking with a password is not supported: ")
        /// A shared library the store needs could not be loaded: libgcrypt for any store that
        /// encrypts, libcurl for etcd.
        public static let libraryMissing = Kind("libraryMissing", "a library could not be loaded: ")
        /// The Secret portal gave no key for libsecret's file: no xdg-desktop-portal on the
        /// session bus, a portal without a Secret backend or at another version, or a backend that failed.
        public static let noSecretPortal = Kind("noSecretPortal", "no key from the Secret portal: ")

        /// Equal names; the words that describe a kind follow from its name.
        public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.name == rhs.name }

        /// Hashes the name, as `==` compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        /// Whether `error` is a ``KeyringError`` saying the store is unavailable
        /// for this reason, so that `catch KeyringError.Unavailability.Kind.noDaemon` works.
        public static func ~= (kind: Kind, error: any Error) -> Bool {
            (error as? KeyringError)?.unavailability?.kind == kind
        }

        /// Whether `reason` is of this kind, so that `case .noDaemon:` matches in
        /// a `switch` over an ``KeyringError/Unavailability``.
        public static func ~= (kind: Kind, reason: KeyringError.Unavailability) -> Bool {
            reason.kind == kind
        }
    }
}
