internal import CLibSecretShims

/// A private connection to one session bus, made for one store or one probe.
///
/// Not the process-wide session bus singleton: a store follows the address it
/// was given, and closing it never disturbs other users of the bus.
///
/// `@unchecked Sendable`: `GDBusConnection` is documented as thread-safe, and
/// this class only hands its pointer to GLib calls.
final class BusConnection: @unchecked Sendable {
    static let secretServiceName = SWIFT_KEYRING_BUS_NAME

    /// The `GDBusConnection *`.
    let pointer: OpaquePointer

    /// Loads libsecret and GIO when no connection did yet, then connects and authenticates
    /// (the bus's `Hello`) before the deadline.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noSessionBus)` or `.libraryMissing`, or `.timedOut`.
    init(address: String, deadline: Deadline) throws {
        try LibSecretLoading.ensureLoaded()
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue
        )
        let connection = try GLibCall.run("connect to the session bus", deadline: deadline, phase: .connect) {
            cancellable, error in
            g_dbus_connection_new_for_address_sync(address, flags, nil, cancellable, error)
        }
        guard let connection else {
            throw KeyringError.serviceUnavailable(reason: .noSessionBus(detail: "\(address) gave no connection"))
        }
        // Before any call of ours: from now on a reply is taken only from the connection its
        // call went to (reply_guard.c), never from another program answering our serials.
        swift_keyring_reply_guard_install(connection)
        pointer = connection
    }

    deinit {
        // Asynchronous close: it never blocks, and a hung peer cannot hold us here.
        g_dbus_connection_close(pointer, nil, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Calls a method and returns its reply, before the deadline.
    ///
    /// `reply` is the reply's D-Bus signature, such as `(o)`: a reply of another type
    /// is an error naming the method (GDBus checks it), never a value read as if it
    /// fitted. `autoStart: false` keeps the bus from activating a service to answer.
    func call(
        _ operation: String,
        destination: String,
        path: String,
        interface: String,
        method: String,
        arguments: OpaquePointer?,
        reply: String,
        autoStart: Bool = true,
        deadline: Deadline
    ) throws -> OpaquePointer {
        let answer = try send(
            operation, destination, path, interface, method, arguments, reply, autoStart: autoStart, vanishing: false,
            deadline: deadline)
        // Without `vanishing`, an answer is a reply or a thrown error.
        return answer!
    }

    /// Calls a method on an item (or naming one) and returns its reply; `nil` when
    /// the daemon says the object is gone (`swift_keyring_error_is_vanished_object`):
    /// another process deleted the item since we found it, which is no failure.
    func callOnItem(
        _ operation: String,
        destination: String,
        path: String,
        interface: String,
        method: String,
        arguments: OpaquePointer?,
        reply: String,
        deadline: Deadline
    ) throws -> OpaquePointer? {
        try send(
            operation, destination, path, interface, method, arguments, reply, autoStart: true, vanishing: true,
            deadline: deadline)
    }

    /// The call both of the above make; `nil` only when `vanishing` and the object is gone.
    private func send(
        _ operation: String, _ destination: String, _ path: String, _ interface: String, _ method: String,
        _ arguments: OpaquePointer?, _ reply: String, autoStart: Bool, vanishing: Bool, deadline: Deadline
    ) throws -> OpaquePointer? {
        let flags = autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
        let replyType = g_variant_type_new(reply)
        defer { g_variant_type_free(replyType) }
        var vanished = false
        let reply = try GLibCall.run(operation, deadline: deadline) { cancellable, error in
            let reply = g_dbus_connection_call_sync(
                pointer, destination, path, interface, method, arguments, replyType, flags, deadline.remainingMilliseconds,
                cancellable, error
            )
            if vanishing && reply == nil && swift_keyring_error_is_vanished_object(error.pointee) != 0 {
                g_clear_error(error)
                vanished = true
            }
            return reply
        }
        guard !vanished else { return nil }
        guard let reply else {
            throw KeyringError.backend(domain: interface, code: 0, message: "\(method) gave no reply")
        }
        return reply
    }

    /// Calls a method of the bus itself, which answers with one value.
    private func callBus(_ method: String, arguments: OpaquePointer?, reply: String, deadline: Deadline) throws
        -> OpaquePointer
    {
        try call(
            "ask the session bus (\(method))",
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            method: method,
            arguments: arguments,
            reply: reply,
            deadline: deadline
        )
    }

    /// The unique name of the connection that owns `name` now, such as `:1.4`; `nil` when none does.
    func nameOwner(_ name: String, deadline: Deadline) throws -> String? {
        let reply: OpaquePointer
        do {
            reply = try callBus("GetNameOwner", arguments: GVariantReading.stringTuple(name), reply: "(s)", deadline: deadline)
        } catch KeyringError.Unavailability.Kind.noDaemon {
            // The bus answers NameHasNoOwner, which GLibFailure reports as no daemon.
            return nil
        }
        defer { g_variant_unref(reply) }
        return GVariantReading.string(reply, 0)
    }

    /// The process id of the connection named `unique` (such as `:1.4`), as the bus reports it; `nil` when unknown.
    func processID(ofConnection unique: String, deadline: Deadline) throws -> Int32? {
        let reply = try callBus(
            "GetConnectionUnixProcessID", arguments: GVariantReading.stringTuple(unique), reply: "(u)",
            deadline: deadline)
        defer { g_variant_unref(reply) }
        let processID = Int32(bitPattern: GVariantReading.uint32(reply, 0))
        return processID > 0 ? processID : nil
    }

    /// Asks the bus to deliver the signals matching `rule` to this connection; it
    /// has done so for every message sent after its reply.
    func addMatch(_ rule: String, deadline: Deadline) throws {
        g_variant_unref(try callBus("AddMatch", arguments: GVariantReading.stringTuple(rule), reply: "()", deadline: deadline))
    }

    /// Whether the bus can start a service for `name` (D-Bus activation).
    func isActivatable(_ name: String, deadline: Deadline) throws -> Bool {
        let reply = try callBus("ListActivatableNames", arguments: nil, reply: "(as)", deadline: deadline)
        defer { g_variant_unref(reply) }
        return GVariantReading.strings(reply, 0).contains(name)
    }

    /// The unique name of `name`'s owner, asking the bus to start one (D-Bus activation)
    /// when none runs; `nil` on a connection without a bus, which has no owners to ask of.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noDaemon)` when none runs and none
    ///   can be started, or the calls' errors.
    func startedOwner(_ name: String, deadline: Deadline) throws -> String? {
        guard g_dbus_connection_get_unique_name(pointer) != nil else { return nil }
        if let owner = try nameOwner(name, deadline: deadline) { return owner }
        var arguments = [g_variant_new_string(name), g_variant_new_uint32(0)]
        g_variant_unref(
            try callBus("StartServiceByName", arguments: g_variant_new_tuple(&arguments, 2), reply: "(u)", deadline: deadline))
        guard let owner = try nameOwner(name, deadline: deadline) else {
            throw KeyringError.serviceUnavailable(reason: .noDaemon(detail: "\(name) was started and left the bus"))
        }
        return owner
    }

    /// Sends `org.freedesktop.DBus.Peer.Ping` to `name`'s owner without starting it: proof it answers.
    func ping(_ name: String, deadline: Deadline) throws {
        let reply = try call(
            "ping \(name)",
            destination: name,
            path: "/",
            interface: "org.freedesktop.DBus.Peer",
            method: "Ping",
            arguments: nil,
            reply: "()",
            autoStart: false,
            deadline: deadline
        )
        g_variant_unref(reply)
    }
}
