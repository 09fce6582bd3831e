internal import CLibSecretShims

/// D-Bus calls sent together and answered later, in a main context of their own.
///
/// A read that needs several calls (an item's attributes and its secret, many
/// items' attributes, `OpenSession` while the search goes out) waits about one
/// round trip for all of them, not one per call. The replies are dispatched in
/// this value's own `GMainContext`, never in a loop nobody runs, so any thread
/// can wait for them. Every call has this value's `GCancellable`; the one a wait
/// is given (the deadline's, or a cancelled task's) cancels it.
///
/// `@unchecked Sendable`: used by one thread at a time (an `Opening` may be
/// finished on another thread than the one that started it); the replies are
/// only touched while that thread iterates the context.
final class CallsInFlight: @unchecked Sendable {
    /// What one call came back with.
    enum Answer {
        /// The reply, of the type the call asked for (GDBus checked it); the caller unrefs it.
        case reply(OpaquePointer)
        /// The object is gone (an item deleted since the search): no failure.
        case vanished
        /// Not answered yet, or failed (`failure` has the first failure).
        case none
    }

    private let bus: BusConnection
    private let context: OpaquePointer
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let state = State()

    /// The answers, filled by `answered` while the context is iterated.
    private final class State {
        var replies: [OpaquePointer?] = []
        var vanished: [Bool] = []
        var pending = 0
        /// The first failure other than a vanished object.
        var failure: UnsafeMutablePointer<GError>?
    }

    /// What GDBus hands back to `answered`: the state and which call it was.
    private final class Slot {
        let state: State
        let index: Int
        init(_ state: State, _ index: Int) {
            self.state = state
            self.index = index
        }
    }

    /// Calls on `bus`, cancelled by `cancellable` (a `GLibCall.run`'s, when all of them are
    /// sent and awaited in its body), or by one of their own.
    init(on bus: BusConnection, cancellable: UnsafeMutablePointer<GCancellable>? = nil) {
        self.bus = bus
        context = g_main_context_new()
        self.cancellable =
            cancellable.map { g_object_ref($0).assumingMemoryBound(to: GCancellable.self) } ?? g_cancellable_new()
    }

    deinit {
        // A callback still to come holds its slot, and needs this context iterated to run.
        if state.pending > 0 {
            g_cancellable_cancel(cancellable)
            waitForAll(cancellable: nil)
        }
        state.replies.forEach { $0.map { g_variant_unref($0) } }
        state.failure.map { g_error_free($0) }
        g_object_unref(cancellable)
        g_main_context_unref(context)
    }

    /// Sends one call to `destination` (the daemon's unique name) and returns its index.
    ///
    /// `reply` is the reply's D-Bus signature: GDBus turns a reply of another type into an error.
    @discardableResult
    func send(
        destination: String, path: String, interface: String, method: String, arguments: OpaquePointer?,
        reply: String, deadline: Deadline
    ) -> Int {
        let index = state.replies.count
        state.replies.append(nil)
        state.vanished.append(false)
        state.pending += 1
        let replyType = g_variant_type_new(reply)
        defer { g_variant_type_free(replyType) }
        let slot = Unmanaged.passRetained(Slot(state, index)).toOpaque()
        // The reply is dispatched in the context that is the thread's default when the call is made.
        g_main_context_push_thread_default(context)
        g_dbus_connection_call(
            bus.pointer, destination, path, interface, method, arguments, replyType, G_DBUS_CALL_FLAGS_NONE,
            deadline.remainingMilliseconds, cancellable, Self.answered, slot)
        g_main_context_pop_thread_default(context)
        return index
    }

    /// Iterates the context until every call sent has its answer; `cancellable` (or the
    /// calls' own) cancelled makes the calls still in flight fail at once.
    func waitForAll(cancellable outer: UnsafeMutablePointer<GCancellable>?) {
        let handler = outer.map {
            swift_keyring_cancellable_connect(
                $0, { _, inner in g_cancellable_cancel(inner?.assumingMemoryBound(to: GCancellable.self)) }, cancellable)
        }
        g_main_context_push_thread_default(context)
        while state.pending > 0 { g_main_context_iteration(context, 1) }
        g_main_context_pop_thread_default(context)
        if let outer, let handler, handler != 0 { g_cancellable_disconnect(outer, handler) }
    }

    /// The answer of call `index`, which the caller owns from now on.
    func take(_ index: Int) -> Answer {
        if state.vanished[index] { return .vanished }
        guard let reply = state.replies[index] else { return .none }
        state.replies[index] = nil
        return .reply(reply)
    }

    /// Whether a call failed (other than with a vanished object).
    var failed: Bool { state.failure != nil }

    /// Hands the first failure to `error` (for `GLibCall.run`), if there was one.
    func takeFailure(into error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) {
        guard let failure = state.failure else { return }
        state.failure = nil
        error.pointee = failure
    }

    /// GDBus's callback for a call's end: records the reply, a vanished object, or the first failure.
    private static let answered: GAsyncReadyCallback = { source, result, data in
        let slot = Unmanaged<Slot>.fromOpaque(data!).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
        let state = slot.state
        state.pending -= 1
        if let reply {
            state.replies[slot.index] = reply
        } else if let error {
            if swift_keyring_error_is_vanished_object(error) != 0 {
                state.vanished[slot.index] = true
                g_error_free(error)
            } else if state.failure == nil {
                state.failure = error
            } else {
                g_error_free(error)
            }
        }
    }
}
