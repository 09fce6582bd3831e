import Logging
import Synchronization

/// The `SecretServiceClient` a store calls through, replaced by a new one when
/// the daemon behind it went away.
///
/// A Secret Service session lives only as long as the daemon that opened it.
/// When gnome-keyring restarts (systemd restarts it after a crash, or the user
/// logs out and in), every call on the old session fails for good: "the
/// session does not exist", or no reply at all. An app that keeps its
/// `Keyring` for hours should not have to notice, so a call that fails that
/// way is made once more on a fresh connection and session, within the same
/// deadline. Only a second failure reaches the caller.
///
/// Every store operation is safe to repeat: a save replaces the item with the
/// same attributes, and a removal of what is already gone removes nothing.
final class ReopeningClient: Sendable {
    private let address: String
    private let collection: CollectionChoice
    private let logger: Logger
    /// The client in use and how many times it was replaced, so that threads
    /// which saw the same client fail replace it once, not once each; no client
    /// yet while the first flight is held (`opening`) or failed.
    private let current: Mutex<(client: SecretServiceClient?, generation: Int, opening: HeldOpening?)>

    /// Takes the probe's connection, already open to `address` (and starts the daemon before
    /// `deadline` when the probe found none running), else connects and holds the first
    /// flight, sent by the first call (`HeldOpening`). A client opened later, after the
    /// daemon went away, always connects anew.
    /// - Throws: as `SecretServiceClient.init` when the daemon must be started; else only
    ///   the socket's errors (`BusConnection.init`): the rest are the first call's.
    init(
        address: String, collection: CollectionChoice = .default, probed: ProbedBus? = nil, deadline: Deadline,
        logger: Logger
    ) throws {
        self.address = address
        self.collection = collection
        self.logger = logger
        if let probed, let daemon = probed.owner {
            current = Mutex((nil, 0, HeldOpening(probed: probed.connection, daemon: daemon)))
        } else if let probed {
            current = Mutex(
                (try SecretServiceClient(bus: probed.connection, owner: nil, collection: collection, deadline: deadline), 0, nil))
        } else {
            current = Mutex((nil, 0, try HeldOpening(address: address, deadline: deadline)))
        }
    }

    /// What the current client remembers of items (see `ItemMemory`); `nil` before the first call.
    var memory: ItemMemory? { current.withLock { $0.client?.memory } }

    /// The client in use: opened now, on the held first flight (or anew, when that flight
    /// failed), when none is yet.
    private func client(deadline: Deadline) throws -> (SecretServiceClient, Int) {
        try current.withLock { current in
            if let client = current.client { return (client, current.generation) }
            let opening = current.opening
            current.opening = nil
            // Opening's errors name the store, as the store's init names them.
            let client = try KeyringError.placing(in: .secretService) {
                if let opening {
                    try opening.open(collection: collection, deadline: deadline)
                } else {
                    try SecretServiceClient(address: address, collection: collection, deadline: deadline)
                }
            }
            current.client = client
            return (client, current.generation)
        }
    }

    /// Runs `body` on the current client; when it fails because the daemon or
    /// the session is gone, opens a new client and runs `body` once more.
    func run<Result>(
        _ operation: String, deadline: Deadline, _ body: (SecretServiceClient) throws -> Result
    ) throws -> Result {
        let (client, generation) = try self.client(deadline: deadline)
        do {
            return try body(client)
        } catch let error as KeyringError
            where Self.mayMeanDaemonGone(error) && !deadline.hasPassed
            && client.daemonIsGone(deadline: deadline)
        {
            let fresh = try reopen(after: generation, deadline: deadline)
            logger.debug(
                "the Secret Service daemon went away; a new session was opened",
                metadata: ["operation": "\(operation)", "cause": "\(error)"]
            )
            return try body(fresh)
        }
    }

    /// The client to retry with: a new one, unless another thread already replaced `generation`.
    private func reopen(after generation: Int, deadline: Deadline) throws -> SecretServiceClient {
        try current.withLock { current in
            if current.generation == generation {
                // Connecting under the lock keeps a burst of failing threads to one
                // new session; their calls in flight on the old client are not blocked.
                current = (
                    try SecretServiceClient(address: address, collection: collection, deadline: deadline), generation + 1,
                    nil
                )
            }
            return current.client!
        }
    }

    /// Whether `error` can come from a daemon that is gone: no reply, no owner of
    /// the name, or the new daemon's "the session does not exist", whatever D-Bus error
    /// name it comes with. The bus is asked before retrying, so
    /// an error with another cause costs one call to the bus and is then thrown.
    /// A timeout is never retried: a hung daemon must not get twice the time.
    private static func mayMeanDaemonGone(_ error: KeyringError) -> Bool {
        switch error {
        case .serviceUnavailable, .backend: return true
        default: return false
        }
    }
}
