/// A watch of the Secret portal's `Response` signals, made before `RetrieveSecret` is
/// sent, on the same connection, so an answer is seen whenever it comes.
///
/// The portal sends `Response` to the caller alone (a unicast signal), so the bus needs no
/// match rule for it; the sender must be the portal's unique name, since any program on
/// the bus could send a `Response` of its own. The portal leaving the bus ends the wait.
final class PortalResponseWatch {
    /// What the signals said, written by the connection's handler with its lock held,
    /// and read in `wait`'s condition, under the same lock.
    private final class State: @unchecked Sendable {
        /// Each request's answer, by the request's object path.
        var responses: [String: UInt32] = [:]
        var vanished = false
    }

    private let bus: BusConnection
    private let state = State()
    private let handler: Int

    /// Watches `Response` from `portal` (the portal's unique name), on any request path.
    init(on bus: BusConnection, portal: String, deadline: Deadline) throws {
        self.bus = bus
        let state = state
        let interests = [
            SignalInterest(
                sender: portal, member: "Response", signature: "ua{sv}",
                decode: { cursor in
                    // The response code; the results are checked and left unread.
                    let response = try cursor.uint32()
                    try cursor.skip("a{sv}")
                    return response
                }), SignalInterest.nameOwnerChanged,
        ]
        handler = bus.addHandler(for: interests) { message in
            if message.sender == portal, message.interface == "org.freedesktop.portal.Request",
                message.member == "Response", let path = message.path, let response = message.decoded as? UInt32
            {
                state.responses[path] = response
            } else if NameOwnerChange.isDeparture(of: SecretPortal.busName, in: message) {
                state.vanished = true
            }
        }
        do {
            try bus.addMatch(BusConnection.nameOwnerChangedRule(SecretPortal.busName), deadline: deadline)
        } catch {
            bus.removeHandler(handler)
            throw error
        }
    }

    deinit {
        bus.removeHandler(handler)
    }

    /// Waits for the response to `request` until `deadline` or a cancelled task; `nil`
    /// when the portal left the bus first.
    /// - Throws: `.timedOut(operation:…)` or `CancellationError`.
    func wait(for request: String, asked: String, deadline: Deadline) throws -> UInt32? {
        let state = state
        try bus.wait(asked, deadline: deadline) { state.responses[request] != nil || state.vanished }
        return state.responses[request]
    }
}
