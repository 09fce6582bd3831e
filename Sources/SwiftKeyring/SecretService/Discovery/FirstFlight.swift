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

    /// Sends the owner question and the greeting (held with the rest when `bus` holds its writes).
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
/// answered it already. The first call adds its lookup's `OpenSession` and `SearchItems`
/// (a call that reads a secret searches first), and all go in one write: a first lookup
/// waits for two round trips in all (this flight, then the item's attributes and secret), as
/// libsecret's on an open connection; a call that carries no secret opens no session.
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

    /// Sends what is held, with `OpenSession` and `SearchItems` of `searching` when given, and
    /// opens the client on the daemon that answered; with no owner, the bus is asked to start
    /// one, as without a flight.
    /// - Throws: as `SecretServiceClient.init`.
    func open(collection: CollectionChoice, searching: SecretAttributes?, deadline: Deadline) throws
        -> SecretServiceClient
    {
        guard let flight else {
            let daemon = greeted!
            let (session, search) = try bus.sendingTogether(deadline: deadline) {
                try sendLookup(searching, to: daemon, owner: nil, deadline: deadline)
            }
            return try SecretServiceClient(
                bus: bus, owner: daemon, greeted: true, session: session, search: search, collection: collection,
                deadline: deadline)
        }
        let sent = Result {
            try sendLookup(searching, to: SecretServiceNames.busName, owner: flight.question, deadline: deadline)
        }
        try bus.flush(deadline: deadline)
        let (session, search) = try sent.get()
        let daemon: String?
        do {
            daemon = try flight.daemon(deadline: deadline)
        } catch {
            search?.call.forget()
            throw error
        }
        guard let daemon else {
            // Nobody answered the calls sent to the name: the bus starts a daemon, which is greeted then.
            search?.call.forget()
            return try SecretServiceClient(bus: bus, owner: nil, collection: collection, deadline: deadline)
        }
        session?.bind(to: daemon)
        return try SecretServiceClient(
            bus: bus, owner: daemon, greeted: true, session: session, search: search, collection: collection,
            deadline: deadline)
    }

    /// A lookup's `OpenSession` and `SearchItems` for `searching` (none without), to `daemon`.
    private func sendLookup(
        _ searching: SecretAttributes?, to daemon: String, owner: BusConnection.OwnerQuery?, deadline: Deadline
    ) throws -> (session: SecretTransfer.Opening?, search: SecretServiceClient.SentSearch?) {
        guard let searching else { return (nil, nil) }
        let session = try SecretTransfer.Opening(bus: bus, daemon: daemon, owner: owner, deadline: deadline)
        let call = try ServiceInterface(bus: bus, daemon: daemon).searchItems(
            searching.values, owner: owner, deadline: deadline)
        return (session, SecretServiceClient.SentSearch(attributes: searching.values, call: call))
    }
}
