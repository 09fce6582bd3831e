/// The bus connection a probe found a Secret Service on, with the address it was made to.
///
/// Store selection hands it to the Secret Service store it opens, which greets the
/// daemon on it rather than connecting again: a start then connects, authenticates
/// and says `Hello` once. Never in public API: a `StoreSelection` stays a plain value.
struct ProbedBus: Sendable {
    /// The session bus address, resolved from the environment the probe was given.
    let address: String
    /// The open connection; no call to the Secret Service itself has been made on it
    /// but `Ping` (which the daemon's D-Bus library answers), so the store's greeting
    /// is still its first call to the daemon.
    let connection: BusConnection
    /// The unique name of the daemon the probe pinged; `nil` when none runs yet and the
    /// bus can start one (the store then asks the bus to).
    let owner: String?
}
