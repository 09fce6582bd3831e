/// The bus connection a probe found a Secret Service on, with the address it was made to.
///
/// Store selection hands it to the Secret Service store it opens, which greets the
/// daemon on it rather than connecting again: a start then connects, authenticates
/// and says `Hello` once. Never in public API: a `StoreSelection` stays a plain value.
struct ProbedBus: Sendable {
    /// The session bus address, resolved from the environment the probe was given.
    let address: String
    /// The open connection; the only call to the Secret Service made on it is the
    /// probe's greeting (`FirstFlight`), when `greeted`.
    let connection: BusConnection
    /// The unique name of the daemon that answered the probe's greeting; `nil` when none
    /// runs yet and the bus can start one (the store then asks the bus to, and greets it).
    let owner: String?
}
