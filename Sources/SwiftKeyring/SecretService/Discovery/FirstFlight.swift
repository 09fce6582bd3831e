/// The calls a new connection sends before it waits for anything, and how their answers are
/// taken: `GetNameOwner(org.freedesktop.secrets)` and the greeting, bound to the owner the
/// bus names (see `BusConnection.askOwner`), behind the authentication and `Hello`. The bus
/// answers `Hello` and `GetNameOwner` itself, in order, before it routes the greeting, so
/// one round trip tells who the daemon is and that it answers: no `Peer.Ping` is needed. A
/// change of owner before the greeting's answer is an error (`askOwner(…watching:)`).
///
/// The match rule that watch adds stays for the connection's life, on purpose: the lookup
/// memory (`ItemMemory`) needs the same rule once the store searches a second time, the
/// name changes owner only when a daemon starts or ends, and a `RemoveMatch` would be a
/// message more on every start for a rule that costs nothing while it waits.
struct FirstFlight {
    let bus: BusConnection
    let question: BusConnection.OwnerQuery
    let greeting: PendingReply<Void>

    /// Sends the owner question and the greeting (held, with the authentication, when `bus` holds its writes).
    init(bus: BusConnection, deadline: Deadline) throws {
        self.bus = bus
        question = try bus.askOwner(SecretServiceNames.busName, watching: true, deadline: deadline)
        greeting = try ServiceInterface(bus: bus, daemon: SecretServiceNames.busName).greeting(
            owner: question, deadline: deadline)
    }

    /// The daemon's unique name, once it answered the greeting; `nil` when nobody owns the
    /// name (the calls bound to it are answered by the bus's errors, and forgotten).
    /// - Throws: the owner question's errors (an answer that is no unique name), the
    ///   greeting's (the daemon's error, or `.timedOut`).
    func daemon(deadline: Deadline) throws -> String? {
        let owner: String?
        do {
            owner = try bus.owner(answering: question, deadline: deadline)
        } catch {
            greeting.forget()
            throw error
        }
        guard let owner else {
            greeting.forget()
            return nil
        }
        try greeting.value(asked: ServiceInterface.greetingAsked, deadline: deadline)
        return owner
    }
}

/// A store's connection before its first call: the first flight held (the authentication,
/// `Hello`, the owner question and the greeting), or the probe's connection whose daemon
/// answered it already. The first call sends the flight and waits for the greeting's answer
/// before it sends anything else to the daemon: a first lookup then waits three round trips
/// after the socket connects (this flight, the session and the search, then the item's
/// attributes and secret).
///
/// Why not two, with `OpenSession` and `SearchItems` in this flight: gnome-keyring (42 here,
/// 50 elsewhere) makes its record of a caller in a callback it queues for each message, and
/// its `OpenSession` handler can run before that record exists when the call comes among a
/// new connection's first messages; it then aborts on a NULL reply (the greeting comment in
/// `SecretServiceClient.init`). The greeting sent first in the same write did not prevent it:
/// with the lookup in this flight a starved daemon here aborted, in CI and in a reproduction,
/// and the reports of this abort elsewhere come from bursts of new connections' `OpenSession`.
///
/// `@unchecked Sendable`: used only under `ReopeningClient`'s lock.
final class HeldOpening: @unchecked Sendable {
    private let bus: BusConnection
    /// The held flight, or `nil` on the probe's connection.
    private let flight: FirstFlight?
    /// The daemon that answered the probe's greeting.
    private let greeted: String?

    /// Connects to `address` (the socket and its owner checked now) and holds the first flight.
    /// - Throws: as `BusConnection.init` for the socket.
    init(address: String, deadline: Deadline) throws {
        bus = try BusConnection(address: address, holding: true, deadline: deadline)
        flight = try FirstFlight(bus: bus, deadline: deadline)
        greeted = nil
    }

    /// The probe's connection, on which `daemon` answered the greeting.
    init(probed bus: BusConnection, daemon: String) {
        self.bus = bus
        flight = nil
        greeted = daemon
    }

    /// Sends what is held and opens the client on the daemon that answered the greeting; with
    /// no owner, the bus is asked to start one, as without a flight.
    /// - Throws: as `SecretServiceClient.init`.
    func open(collection: CollectionChoice, deadline: Deadline) throws -> SecretServiceClient {
        guard let flight else {
            return try SecretServiceClient(bus: bus, owner: greeted!, greeted: true, collection: collection, deadline: deadline)
        }
        try bus.flush(deadline: deadline)
        guard let daemon = try flight.daemon(deadline: deadline) else {
            // Nobody answered the calls sent to the name: the bus starts a daemon, which is greeted then.
            return try SecretServiceClient(bus: bus, owner: nil, collection: collection, deadline: deadline)
        }
        return try SecretServiceClient(bus: bus, owner: daemon, greeted: true, collection: collection, deadline: deadline)
    }
}
