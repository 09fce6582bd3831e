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
/// libsecret's on an open connection; a call that carries no secret opens no session. On the
/// probe's connection the lookup may have gone out already, in the probe's own flight
/// (`FirstLookup`): its session serves any call, its search only a search that asks the same.
///
/// `@unchecked Sendable`: used only under `ReopeningClient`'s lock.
final class HeldOpening: @unchecked Sendable {
    private let bus: BusConnection
    /// The held flight, or `nil` on the probe's connection.
    private let flight: FirstFlight?
    /// The daemon that answered the probe's greeting.
    private let greeted: String?
    /// A lookup the probe sent in its own flight, for the read its caller said comes first.
    private let probedLookup: FirstLookup?

    /// Connects to `address` (the socket and its owner checked now) and holds the first flight.
    /// - Throws: as `BusConnection.init` for the socket.
    init(address: String, deadline: Deadline) throws {
        bus = try BusConnection(address: address, holding: true, deadline: deadline)
        flight = try FirstFlight(bus: bus, deadline: deadline)
        greeted = nil
        probedLookup = nil
    }

    /// The probe's connection, on which `daemon` answered the greeting, with the lookup the
    /// probe sent beside the greeting, if any.
    init(probed bus: BusConnection, daemon: String, lookup: FirstLookup?) {
        self.bus = bus
        flight = nil
        greeted = daemon
        probedLookup = lookup
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
            // The probe's lookup when it sent one (the client's first search takes its SearchItems
            // only when it asks the same, `searchPaths`), else one sent now (none without a secret to read).
            let lookup =
                try probedLookup
                ?? searching.map { searching in
                    try bus.sendingTogether(deadline: deadline) {
                        try FirstLookup(searching, bus: bus, daemon: daemon, owner: nil, deadline: deadline)
                    }
                }
            return try SecretServiceClient(
                bus: bus, owner: daemon, greeted: true, session: lookup?.session, search: lookup?.search,
                collection: collection, deadline: deadline)
        }
        let sent = Result {
            try searching.map {
                try FirstLookup($0, bus: bus, daemon: SecretServiceNames.busName, owner: flight.question, deadline: deadline)
            }
        }
        try bus.flush(deadline: deadline)
        let lookup = try sent.get()
        let daemon: String?
        do {
            daemon = try flight.daemon(deadline: deadline)
        } catch {
            lookup?.forget()
            throw error
        }
        guard let daemon else {
            // Nobody answered the calls sent to the name: the bus starts a daemon, which is greeted then.
            lookup?.forget()
            return try SecretServiceClient(bus: bus, owner: nil, collection: collection, deadline: deadline)
        }
        lookup?.bind(to: daemon)
        return try SecretServiceClient(
            bus: bus, owner: daemon, greeted: true, session: lookup?.session, search: lookup?.search,
            collection: collection, deadline: deadline)
    }
}

/// A lookup's `OpenSession` and `SearchItems`, sent before the daemon answered anything so
/// that they share the first flight's round trip: the store's first call adds them to its
/// held flight (`HeldOpening`), and the probe to its own when its caller said which record it
/// reads first (the tool's `get`, see `KeyringConfiguration.firstReadKey`).
struct FirstLookup: Sendable {
    let session: SecretTransfer.Opening
    let search: SecretServiceClient.SentSearch

    /// Sends both to `daemon`: its unique name, or the well-known name bound to `owner`
    /// (then named by `bind(to:)` once the bus answered).
    /// - Throws: the key pair's or the sends' errors.
    init(_ searching: SecretAttributes, bus: BusConnection, daemon: String, owner: BusConnection.OwnerQuery?, deadline: Deadline)
        throws
    {
        session = try SecretTransfer.Opening(bus: bus, daemon: daemon, owner: owner, deadline: deadline)
        let call = try ServiceInterface(bus: bus, daemon: daemon).searchItems(searching.values, owner: owner, deadline: deadline)
        search = SecretServiceClient.SentSearch(attributes: searching.values, call: call)
    }

    /// Names the daemon the bus said owns the name the calls went to.
    func bind(to daemon: String) {
        session.bind(to: daemon)
    }

    /// Drops both replies unread (the session's when its opening is let go).
    func forget() {
        search.call.forget()
    }
}
