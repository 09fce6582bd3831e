internal import CLibSecretShims

/// A subscription to one prompt's `Completed` signal, in a main context of its
/// own, so the signal waits there (never in a loop nobody runs) until asked for.
///
/// Made before `Prompt.Prompt` is sent, on the same connection, so the bus has the
/// match rule before the prompt can end. Used by one thread at a time.
final class PromptWatch {
    /// What the signals said, filled while the context is iterated.
    private final class State {
        var completed = false
        var dismissed = false
        var vanished = false
        var released = false
        /// The prompt's result: "ao" for an unlock prompt, "o" for a CreateItem prompt.
        var paths: [String] = []
    }

    private let bus: BusConnection
    private let context: OpaquePointer
    private let state = State()
    private let statePointer: UnsafeMutableRawPointer
    private var subscription: guint = 0
    private var ownerSubscription: guint = 0

    /// Subscribes to `Completed` on `prompt`, sent by `daemon` (the unique name of the
    /// daemon that made the prompt; any sender when `nil`, on a connection without a bus).
    init(_ prompt: String, on bus: BusConnection, daemon: String?) {
        self.bus = bus
        context = g_main_context_new()
        // Retained until GDBus lets go of the subscription (`released`).
        statePointer = Unmanaged.passRetained(state).toOpaque()
        g_main_context_push_thread_default(context)
        // The daemon's unique name as the sender: any program on the bus can emit a
        // Completed on a prompt's path, and one did end a pending unlock prompt in
        // 0.1 s, the record then reported absent.
        subscription = g_dbus_connection_signal_subscribe(
            bus.pointer, daemon, "org.freedesktop.Secret.Prompt", "Completed", prompt, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            Self.completed, statePointer, Self.released)
        // A daemon that dies with the prompt open (KeePassXC has been seen to) would
        // otherwise leave the wait to the prompt's long bound.
        ownerSubscription = g_dbus_connection_signal_subscribe(
            bus.pointer, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
            BusConnection.secretServiceName, G_DBUS_SIGNAL_FLAGS_NONE, Self.ownerChanged, statePointer, nil)
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

    /// Waits for `Completed` until `cancellable` is cancelled (by the prompt's deadline
    /// or a cancelled task), then sets `G_IO_ERROR_CANCELLED`, or until the daemon
    /// leaves the bus, then `G_DBUS_ERROR_NAME_HAS_NO_OWNER` (for `GLibCall.run`).
    func wait(
        cancellable: UnsafeMutablePointer<GCancellable>, error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>
    ) {
        // The cancellation comes from another thread: it wakes the context, and the loop looks.
        let handler = swift_keyring_cancellable_connect(
            cancellable, { _, context in g_main_context_wakeup(OpaquePointer(context)) }, UnsafeMutableRawPointer(context))
        g_main_context_push_thread_default(context)
        while !state.completed && !state.vanished && g_cancellable_is_cancelled(cancellable) == 0 {
            g_main_context_iteration(context, 1)
        }
        g_main_context_pop_thread_default(context)
        g_cancellable_disconnect(cancellable, handler)
        if state.completed { return }
        if state.vanished {
            g_set_error_literal(
                error, g_dbus_error_quark(), gint(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue),
                "the Secret Service daemon left the bus while its prompt was open")
        } else {
            g_set_error_literal(
                error, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue), "the wait for the prompt was cancelled")
        }
    }

    /// Whether the completed prompt was dismissed.
    var dismissed: Bool { state.dismissed }

    /// The paths the completed prompt gave (those it unlocked, or the item it created).
    var paths: [String] { state.paths }

    private static let completed: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
        let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
        guard !state.completed, let parameters, GVariantReading.type(of: parameters) == "(bv)" else { return }
        state.completed = true
        let dismissed = GVariantReading.child(parameters, 0)
        defer { g_variant_unref(dismissed) }
        state.dismissed = g_variant_get_boolean(dismissed) != 0
        let boxed = GVariantReading.child(parameters, 1)
        defer { g_variant_unref(boxed) }
        let result = g_variant_get_variant(boxed)!
        defer { g_variant_unref(result) }
        switch GVariantReading.type(of: result) {
        case "o": state.paths = [String(cString: g_variant_get_string(result, nil))]
        case "ao": state.paths = CStringArray.take(g_variant_dup_objv(result, nil))
        default: state.paths = []
        }
    }

    /// NameOwnerChanged for org.freedesktop.secrets with no new owner: the daemon
    /// that made the prompt is gone, and its Completed will never come.
    private static let ownerChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
        let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
        guard let parameters, GVariantReading.type(of: parameters) == "(sss)" else { return }
        if GVariantReading.string(parameters, 0) == BusConnection.secretServiceName
            && GVariantReading.string(parameters, 2).isEmpty
        {
            state.vanished = true
        }
    }

    private static let released: GDestroyNotify = { data in
        let state = Unmanaged<State>.fromOpaque(data!).takeRetainedValue()
        state.released = true
    }
}
