internal import CLibSecretShims

/// A subscription to the Secret portal's `Response` signals, in a main context
/// of its own, so an answer waits there until asked for.
///
/// Made before `RetrieveSecret` is sent, on the same connection. The portal sends
/// `Response` to the caller alone (a unicast signal), so the bus needs no match
/// rule for it; the sender must be the portal's unique name, since any program
/// on the bus could send a `Response` of its own. Used by one thread at a time.
final class PortalResponseWatch {
    /// What the signals said, filled while the context is iterated.
    private final class State {
        /// Each request's answer, by the request's object path.
        var responses: [String: UInt32] = [:]
        var vanished = false
        var released = false
    }

    private let bus: BusConnection
    private let context: OpaquePointer
    private let state = State()
    private let statePointer: UnsafeMutableRawPointer
    private var subscription: guint = 0
    private var ownerSubscription: guint = 0

    /// Subscribes to `Response` from `portal` (the portal's unique name), on any request path.
    init(on bus: BusConnection, portal: String) {
        self.bus = bus
        context = g_main_context_new()
        // Retained until GDBus lets go of the subscription (`released`).
        statePointer = Unmanaged.passRetained(state).toOpaque()
        g_main_context_push_thread_default(context)
        // Any path: the portal names the request after our token, but adds a number when that name is taken.
        subscription = g_dbus_connection_signal_subscribe(
            bus.pointer, portal, "org.freedesktop.portal.Request", "Response", nil, nil,
            G_DBUS_SIGNAL_FLAGS_NO_MATCH_RULE, Self.response, statePointer, Self.released)
        // A portal that dies before it answers would otherwise leave the wait to its bound.
        ownerSubscription = g_dbus_connection_signal_subscribe(
            bus.pointer, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
            SecretPortal.busName, G_DBUS_SIGNAL_FLAGS_NONE, Self.ownerChanged, statePointer, nil)
        g_main_context_pop_thread_default(context)
    }

    /// Unsubscribes, after GLib let go of the subscription's data: until then a signal
    /// already queued in the context may still be delivered to it.
    deinit {
        g_main_context_push_thread_default(context)
        g_dbus_connection_signal_unsubscribe(bus.pointer, ownerSubscription)
        g_dbus_connection_signal_unsubscribe(bus.pointer, subscription)
        while !state.released { g_main_context_iteration(context, 1) }
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }

    /// Waits for the `Response` to `request` and returns its code (0 success, 1 cancelled
    /// by the person, 2 failed), until `cancellable` is cancelled (the deadline, or a
    /// cancelled task), then sets `G_IO_ERROR_CANCELLED` for `GLibCall.run`; `nil` when the portal left the bus.
    func wait(
        for request: String, cancellable: UnsafeMutablePointer<GCancellable>,
        error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>
    ) -> UInt32? {
        // The cancellation comes from another thread: it wakes the context, and the loop looks.
        let handler = swift_keyring_cancellable_connect(
            cancellable, { _, context in g_main_context_wakeup(OpaquePointer(context)) }, UnsafeMutableRawPointer(context))
        g_main_context_push_thread_default(context)
        while state.responses[request] == nil && !state.vanished && g_cancellable_is_cancelled(cancellable) == 0 {
            g_main_context_iteration(context, 1)
        }
        g_main_context_pop_thread_default(context)
        g_cancellable_disconnect(cancellable, handler)
        if let response = state.responses[request] { return response }
        if !state.vanished {
            g_set_error_literal(
                error, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue), "the wait for the portal was cancelled")
        }
        return nil
    }

    private static let response: GDBusSignalCallback = { _, _, path, _, _, parameters, data in
        let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
        guard let path, let parameters, GVariantReading.type(of: parameters) == "(ua{sv})" else { return }
        state.responses[String(cString: path)] = GVariantReading.uint32(parameters, 0)
    }

    /// NameOwnerChanged for the portal's name with no new owner: its answer will never come.
    private static let ownerChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
        let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
        guard let parameters, GVariantReading.type(of: parameters) == "(sss)" else { return }
        if GVariantReading.string(parameters, 0) == SecretPortal.busName && GVariantReading.string(parameters, 2).isEmpty {
            state.vanished = true
        }
    }

    private static let released: GDestroyNotify = { data in
        let state = Unmanaged<State>.fromOpaque(data!).takeRetainedValue()
        state.released = true
    }
}
