extension KeyringError {
    /// Why the store cannot be reached: the kind a program switches on, and the
    /// detail the system gave, for people.
    ///
    /// ```swift
    /// switch error {
    /// case .serviceUnavailable(.noSessionBus), .serviceUnavailable(.noDaemon):
    ///     // no Secret Service here: fall back to the encrypted file
    /// case .serviceUnavailable(.noKeyringFile(let path)):
    ///     print("create \(path) first")
    /// default:
    ///     throw error
    /// }
    /// ```
    public enum Unavailability: Sendable, Hashable, CustomStringConvertible {
        /// There is no session bus to talk to, or it closed the connection:
        /// no `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus`, an address
        /// nobody listens at, or an `autolaunch:` address.
        case noSessionBus(detail: String)
        /// The bus answers but nobody owns `org.freedesktop.secrets` and the bus
        /// cannot start a daemon for it.
        case noDaemon(detail: String)
        /// The Secret Service daemon left the bus while a call waited for its answer.
        case daemonGone(detail: String)
        /// The encrypted file store was asked not to create its file, and there is none at `path`.
        case noKeyringFile(path: String)
        /// The folder that holds (or should hold) the keyring file is not there.
        case noFolder(path: String)
        /// No member of the etcd cluster could serve the call: every endpoint refused
        /// or failed, or the cluster has lost its quorum.
        case noCluster(detail: String)

        /// The words after "The keyring is unavailable:", such as `no session bus: …`.
        public var description: String {
            switch self {
            case .noSessionBus(let detail): return "no session bus: \(detail)"
            case .noDaemon(let detail): return "no Secret Service daemon: \(detail)"
            case .daemonGone(let detail): return "the Secret Service daemon went away: \(detail)"
            case .noKeyringFile(let path): return "there is no keyring file at \(path)"
            case .noFolder(let path): return "the keyring folder \(path) does not exist"
            case .noCluster(let detail): return "no etcd member could serve the call: \(detail)"
            }
        }

        /// What the system said, without the kind: the detail, or the path.
        public var detail: String {
            switch self {
            case .noSessionBus(let detail), .noDaemon(let detail), .daemonGone(let detail), .noCluster(let detail):
                return detail
            case .noKeyringFile(let path), .noFolder(let path): return path
            }
        }
    }
}
