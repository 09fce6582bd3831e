internal import CLibSecretShims
internal import KeyringCrypto
import Synchronization

/// The libsecret calls a `SecretServiceStore` makes, each bounded by a deadline.
///
/// It owns a private bus connection and, once a secret must cross the bus, a transfer of its own
/// (``SecretTransfer``, the specification's session) that encrypts secrets, so
/// items, prompts and secrets all travel on that connection. The store decides what to call; this type only calls and
/// converts.
///
/// `@unchecked Sendable`: `GDBusConnection` is safe to use from many threads, and
/// the transfer is opened once under a lock and only read after.
final class SecretServiceClient: @unchecked Sendable {
    let bus: BusConnection
    /// The transfer secrets are encrypted for, opened by the first call that carries
    /// a secret (listing and removing never do); freed with this client.
    private let opened = Mutex<TransferState>(.none)
    /// The unique bus name of the daemon, as the bus named the owner of
    /// `org.freedesktop.secrets` when this client opened: a different owner later
    /// means the daemon restarted and the session is gone.
    private let daemon: String?
    /// Which items hold which records, for lookups in one call; it lives and dies
    /// with this client, so a new daemon starts with nothing remembered.
    let memory: ItemMemory
    /// The collection the caller asked for, and the one it resolved to once found
    /// (see `SecretServiceClient+Collection.swift`); a new client resolves anew.
    let choice: CollectionChoice
    let resolved = Mutex<ResolvedCollection?>(nil)

    /// Where every call after the greeting goes: the daemon's unique name, so that all
    /// calls of an operation (and the session) reach one daemon, even while another
    /// process takes `org.freedesktop.secrets` over; once the old daemon leaves, the
    /// calls fail and `ReopeningClient` opens a client on the new one. The well-known
    /// name on a connection without a bus, which has no unique names.
    var destination: String { daemon ?? BusConnection.secretServiceName }

    /// Connects to the bus at `address` and greets the daemon (see `swift_keyring_service_greet`).
    /// - Throws: `KeyringError.serviceUnavailable` (no bus, no daemon) or `.timedOut`.
    convenience init(address: String, collection: CollectionChoice = .default, deadline: Deadline) throws {
        try self.init(bus: BusConnection(address: address, deadline: deadline), collection: collection, deadline: deadline)
    }

    /// Greets the daemon on `bus`, a connection on which nothing but the bus and
    /// `Peer.Ping` was called yet (see `ProbedBus`).
    /// - Throws: as `init(address:collection:deadline:)`, but for connecting.
    init(bus: BusConnection, collection: CollectionChoice = .default, deadline: Deadline) throws {
        choice = collection
        self.bus = bus
        let connection = bus.pointer
        // The daemon is whoever the bus says owns the name (the bus's own replies come
        // only from the bus: reply_guard.c), never whoever answers a call first; every
        // call goes to that unique name, and replies are taken only from it.
        let daemon = try bus.startedOwner(BusConnection.secretServiceName, deadline: deadline)
        // The greeting first, always: gnome-keyring 42 aborts when a new
        // connection's first call is OpenSession or an item's property (service.c).
        _ = try GLibCall.run("connect to the Secret Service", deadline: deadline) { cancellable, error in
            swift_keyring_service_greet(
                connection, daemon ?? BusConnection.secretServiceName, deadline.remainingMilliseconds, cancellable, error)
        }
        self.daemon = daemon
        memory = ItemMemory(bus: bus, daemon: daemon)
    }

    /// The unique name of the daemon this client talks to; `nil` on a connection without a bus.
    var daemonName: String? { daemon }

    /// Where the transfer stands: none yet, its `OpenSession` on the way, or open.
    private enum TransferState {
        case none
        case opening(SecretTransfer.Opening)
        case open(SecretTransfer)
    }

    /// Sends `OpenSession` now, unless a session is open or on its way, so that the
    /// daemon answers it while the caller searches: a lookup then waits for the
    /// search, the session and the secret in three round trips, not four. Best
    /// effort: whatever fails here fails again, and is thrown, in `session(deadline:)`.
    func startSession(deadline: Deadline) {
        opened.withLock { state in
            guard case .none = state,
                let opening = try? SecretTransfer.Opening(bus: bus, daemon: daemon, deadline: deadline)
            else { return }
            state = .opening(opening)
        }
    }

    /// The transfer that encrypts secrets on the bus, opened with the daemon on first use.
    ///
    /// A key exchange the daemons disagree on (one in 256, see `DHKeyAgreement.key(peer:)`)
    /// is followed by another, at most `openingAttempts` in all.
    /// - Throws: `KeyringError.serviceUnavailable` when the daemon opens none, or the call's errors.
    func transfer(deadline: Deadline) throws -> SecretTransfer {
        try opened.withLock { state in
            var opening: SecretTransfer.Opening
            switch state {
            case .open(let transfer):
                return transfer
            case .opening(let started):
                opening = started
            case .none:
                opening = try SecretTransfer.Opening(bus: bus, daemon: daemon, deadline: deadline)
            }
            // The opening is spent by the call below, whatever it returns.
            state = .none
            for attempt in 1...Self.openingAttempts {
                if let transfer = try opening.finish(deadline: deadline) {
                    state = .open(transfer)
                    return transfer
                }
                if attempt < Self.openingAttempts {
                    opening = try SecretTransfer.Opening(bus: bus, daemon: daemon, deadline: deadline)
                }
            }
            throw KeyringError.serviceUnavailable(
                reason: .noDaemon(detail: "the daemon agreed no session key both sides compute alike"))
        }
    }

    /// How many key exchanges `transfer` tries: four in a row that daemons could
    /// disagree on happen once in 2^32 openings.
    static let openingAttempts = 4

    /// Whether the daemon that opened our session is no longer the one on the
    /// bus (or the bus cannot say): then every call on this client will fail.
    func daemonIsGone(deadline: Deadline) -> Bool {
        guard let owner = try? bus.nameOwner(BusConnection.secretServiceName, deadline: deadline) else { return true }
        return owner != daemon
    }

    /// The paths of the items matching `attributes`, split by lock state (`Service.SearchItems`);
    /// with a named collection, only its items.
    ///
    /// A named collection's items are those whose paths lie under its path, as the
    /// specification lays item paths out (gnome-keyring, KeePassXC and KWallet all
    /// do): one call, which keeps the split by lock state that `Collection.SearchItems`
    /// does not give. Whatever lies elsewhere is never read, changed or deleted.
    ///
    /// Called directly rather than through libsecret's search, which needs a
    /// `SecretService` proxy (a GObject subclass, to put it on our connection) and
    /// turns the attributes into a table and back on every call.
    ///
    /// With `openingSession`, the session's opening (`startSession`) is started while the
    /// search is in flight: the key pair is made while the daemon searches, not before or after.
    func searchPaths(_ attributes: SecretAttributes, _ operation: String, openingSession: Bool = false, deadline: Deadline)
        throws -> (unlocked: [String], locked: [String])
    {
        let scope = try searchScope(deadline: deadline).map { $0 + "/" }
        var table: OpaquePointer? = swift_keyring_attributes_variant(attributes.table)
        let arguments = g_variant_new_tuple(&table, 1)
        let reply: OpaquePointer
        if openingSession {
            var calls: CallsInFlight?
            var search = 0
            try GLibCall.run(operation, deadline: deadline) { cancellable, error in
                let inFlight = CallsInFlight(on: bus, cancellable: cancellable)
                search = inFlight.send(
                    destination: destination, path: SWIFT_KEYRING_SERVICE_PATH, interface: "org.freedesktop.Secret.Service",
                    method: "SearchItems", arguments: arguments, reply: "(aoao)", deadline: deadline)
                startSession(deadline: deadline)
                inFlight.waitForAll(cancellable: nil)
                inFlight.takeFailure(into: error)
                calls = inFlight
            }
            guard case .reply(let answer)? = calls?.take(search) else {
                throw KeyringError.backend(
                    domain: "org.freedesktop.Secret.Service", code: 0, message: "SearchItems gave no reply")
            }
            reply = answer
        } else {
            reply = try bus.call(
                operation,
                destination: destination,
                path: SWIFT_KEYRING_SERVICE_PATH,
                interface: "org.freedesktop.Secret.Service",
                method: "SearchItems",
                arguments: arguments,
                reply: "(aoao)",
                deadline: deadline
            )
        }
        defer { g_variant_unref(reply) }
        let found = (unlocked: GVariantReading.objectPaths(reply, 0), locked: GVariantReading.objectPaths(reply, 1))
        guard let scope else { return found }
        return (found.unlocked.filter { $0.hasPrefix(scope) }, found.locked.filter { $0.hasPrefix(scope) })
    }

    /// Asks the daemon to unlock `paths`; returns the paths now unlocked.
    ///
    /// When the daemon asks the person (an unlock prompt), the wait is bounded by
    /// `promptTimeout` rather than `deadline` (see `UnlockPrompt`), and `deadline`
    /// is renewed afterwards: a person's answer must not use up the bound of the
    /// calls that follow it.
    func unlock(_ paths: [String], _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws -> [String] {
        let unlocked = try UnlockPrompt.unlock(
            paths, on: bus, daemon: daemon, operation, deadline: deadline, promptTimeout: prompt.timeout,
            display: prompt.display)
        deadline = Deadline(deadline.timeout)
        return unlocked
    }

    /// Asks the daemon to unlock the collection new items go to, so an item can be
    /// created in it; the daemon may prompt, as in `unlock`.
    func unlockCollection(_ operation: String, deadline: inout Deadline, prompt: PromptBound) throws {
        let collection = try collectionForWriting(operation, deadline: &deadline, prompt: prompt)
        _ = try unlock([collection.path], operation, deadline: &deadline, prompt: prompt)
    }

    /// Reads one item, attributes and secret; `nil` when it is not one of ours,
    /// gives no secret, or was deleted since the search.
    ///
    /// The `Attributes` property and the secret are asked for together, rather
    /// than through a `SecretItem` proxy, which would fetch every property first,
    /// then the secret, and subscribe to and unsubscribe from the item's signals.
    func record(at path: String, _ operation: String, deadline: Deadline) throws -> StoredRecord? {
        let transfer = try transfer(deadline: deadline)
        var calls: CallsInFlight?
        var attributesCall = 0
        var secretCall = 0
        // A failure may only mean the item was deleted since the search (KWallet's GetSecrets says so
        // with InvalidArgs): see `absentIfGone`.
        let answered: Void? = try absentIfGone(path, deadline: deadline) {
            try GLibCall.run(operation, deadline: deadline) { cancellable, error in
                let inFlight = CallsInFlight(on: bus, cancellable: cancellable)
                attributesCall = inFlight.send(
                    destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                    arguments: GVariantReading.propertyTuple("org.freedesktop.Secret.Item", "Attributes"), reply: "(v)",
                    deadline: deadline)
                secretCall = inFlight.send(
                    destination: destination, path: SWIFT_KEYRING_SERVICE_PATH, interface: "org.freedesktop.Secret.Service",
                    method: "GetSecrets", arguments: swift_keyring_get_secrets_argument(transfer.path, path),
                    reply: "(a{o(oayays)})", deadline: deadline)
                inFlight.waitForAll(cancellable: nil)
                inFlight.takeFailure(into: error)
                calls = inFlight
            }
        }
        guard answered != nil, let calls else { return nil }
        // Both answered, or the item vanished meanwhile (either call may be the one that says so).
        guard case .reply(let attributesReply) = calls.take(attributesCall) else { return nil }
        defer { g_variant_unref(attributesReply) }
        guard case .reply(let secretsReply) = calls.take(secretCall) else { return nil }
        defer { g_variant_unref(secretsReply) }
        guard let table = try Self.reading(operation, deadline, { swift_keyring_attributes_property_reply(attributesReply, $0) })
        else { return nil }
        defer { g_hash_table_unref(table) }
        guard let summary = SecretAttributes.summary(from: table),
            let secret = try Self.reading(operation, deadline, { swift_keyring_secret_from_reply(secretsReply, path, $0) })
        else { return nil }
        defer { g_variant_unref(secret) }
        return StoredRecord(id: summary.id, metadata: summary.metadata, secret: try transfer.decode(secret))
    }

    /// What `read` makes of a reply; `nil` when it found nothing, an error when the reply is of another type.
    /// Reading waits on nothing, so it needs no cancellable or deadline watch.
    static func reading<Value>(
        _ operation: String, _ deadline: Deadline,
        _ read: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Value?
    ) throws -> Value? {
        var error: UnsafeMutablePointer<GError>?
        let value = read(&error)
        if let error {
            defer { g_error_free(error) }
            throw GLibFailure.keyringError(
                error, operation: operation, seconds: deadline.timeout.inSeconds, timedOut: false, phase: .call)
        }
        return value
    }

    /// Reads one item's secret only; `nil` when the daemon gives none (the item vanished, or is locked).
    func secret(at path: String, _ operation: String, deadline: Deadline) throws -> [UInt8]? {
        let transfer = try transfer(deadline: deadline)
        guard
            let reply = try bus.callOnItem(
                operation,
                destination: destination,
                path: SWIFT_KEYRING_SERVICE_PATH,
                interface: "org.freedesktop.Secret.Service",
                method: "GetSecrets",
                arguments: swift_keyring_get_secrets_argument(transfer.path, path),
                reply: "(a{o(oayays)})",
                deadline: deadline
            )
        else { return nil }
        defer { g_variant_unref(reply) }
        guard let secret = try Self.reading(operation, deadline, { swift_keyring_secret_from_reply(reply, path, $0) })
        else { return nil }
        defer { g_variant_unref(secret) }
        return try transfer.decode(secret)
    }

    /// The secret at a remembered path, in one call; `nil` when it must be looked up
    /// the long way: the item is gone or locked (gnome-keyring leaves such items out
    /// of `GetSecrets`' reply), or the daemon announced a change while the call was
    /// in flight. A timeout or a cancellation is thrown, not retried.
    func secret(remembered: ItemMemory.Remembered, of id: RecordID, _ operation: String, deadline: Deadline) throws
        -> [UInt8]?
    {
        let secret: [UInt8]?
        do {
            secret = try self.secret(at: remembered.path, operation, deadline: deadline)
        } catch let error as KeyringError {
            if case .timedOut = error { throw error }
            memory.forget(id)
            return nil
        }
        guard let secret, memory.isCurrent(remembered.mark) else {
            memory.forget(id)
            return nil
        }
        return memory.counted(secret)
    }

    /// The identity and metadata of the items at `paths` (readable even while locked),
    /// with the reads in flight together; items that are not ours or vanished meanwhile are left out.
    func summaries(at paths: [String], _ operation: String, deadline: Deadline) throws -> [RecordSummary] {
        try items(at: paths, operation, deadline: deadline).map(\.summary)
    }

    /// As `summaries(at:)`, each with the path of its item, so that a record chosen among them is
    /// read without another search.
    func items(at paths: [String], _ operation: String, deadline: Deadline) throws -> [(path: String, summary: RecordSummary)] {
        let read = try attributes(at: paths, operation, deadline: deadline)
        return paths.compactMap { path in read[path].flatMap(SecretAttributes.summary(from:)).map { (path, $0) } }
    }

    /// Creates an item for `record` in the collection in use (never replacing
    /// one: see `ItemReplacement`); returns the item's path. A prompt the daemon
    /// asks for first (KeePassXC confirms each new item) is shown and waited for
    /// within `prompt`'s bound, and `deadline` is renewed after it, as in `unlock`.
    /// - Throws: `KeyringError.promptDismissed` when the person refuses it, or the calls' errors.
    func createItem(_ record: StoredRecord, _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws -> String {
        let attributes = SecretAttributes.all(record)
        let collection = try collectionForWriting(operation, deadline: &deadline, prompt: prompt).path
        let secret = try transfer(deadline: deadline).encode(record.secret, contentType: Self.contentType(record))
        let reply = try bus.call(
            operation,
            destination: destination,
            path: collection,
            interface: "org.freedesktop.Secret.Collection",
            method: "CreateItem",
            // Label and attributes, the secret as the transfer encoded it, and replace off (KeePassXC
            // answers replace with a confirmation nobody sees, and matches it by a subset of the
            // attributes; ItemReplacement replaces instead).
            arguments: GVariantReading.tuple([
                GVariantReading.dictionary([
                    ("org.freedesktop.Secret.Item.Label", g_variant_new_string(SecretLabel.label(for: record))),
                    ("org.freedesktop.Secret.Item.Attributes", swift_keyring_attributes_variant(attributes.table)),
                ]),
                secret, g_variant_new_boolean(0),
            ]),
            reply: "(oo)",
            deadline: deadline
        )
        defer { g_variant_unref(reply) }
        // "(oo)": the new item's path ("/" when a prompt must create it) and the prompt's ("/" for none).
        let item = GVariantReading.string(reply, 0)
        let promptToShow = GVariantReading.string(reply, 1)
        if promptToShow == "/" {
            guard item != "/" else {
                throw KeyringError.backend(
                    domain: "org.freedesktop.Secret.Service", code: 0, message: "CreateItem returned no item")
            }
            return item
        }
        guard let created = try completePrompt(promptToShow, operation, deadline: &deadline, prompt: prompt) else {
            throw KeyringError.confirmationDismissed
        }
        guard let path = created.first else {
            throw KeyringError.backend(
                domain: "org.freedesktop.Secret.Service", code: 0, message: "CreateItem's prompt gave no item")
        }
        return path
    }

    /// Deletes the item at `path`, showing and waiting for a prompt the daemon
    /// asks for first (KeePassXC may confirm each deletion); `deadline` is renewed after it, as in `unlock`.
    /// - Returns: `false` when the item was already gone (another process deleted it since the search).
    /// - Throws: `KeyringError.promptDismissed` when the person refuses it, or the calls' errors.
    func delete(_ path: String, _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws -> Bool {
        guard
            let reply = try bus.callOnItem(
                operation, destination: destination, path: path, interface: "org.freedesktop.Secret.Item",
                method: "Delete", arguments: nil,
                reply: "(o)", deadline: deadline)
        else { return false }
        defer { g_variant_unref(reply) }
        let promptToShow = GVariantReading.string(reply, 0)
        guard promptToShow != "/" else { return true }
        guard try completePrompt(promptToShow, operation, deadline: &deadline, prompt: prompt) != nil else {
            throw KeyringError.promptDismissed
        }
        return true
    }

    /// Shows a prompt a write asked for, within the prompt bound, then renews `deadline`;
    /// `nil` when it was dismissed.
    private func completePrompt(_ path: String, _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws
        -> [String]?
    {
        let answered = try SecretPrompt.complete(
            path, on: bus, daemon: daemon, operation, unlocking: false, callTimeout: deadline.timeout,
            promptTimeout: prompt.timeout
        )
        deadline = Deadline(deadline.timeout)
        return answered
    }

    /// Whether the collection in use is locked now (reading its `Locked` property).
    /// - Throws: `.serviceUnavailable(reason: .noCollection)` when there is none.
    func isCollectionLocked(deadline: Deadline) throws -> Bool {
        try isLocked(collection(deadline: deadline).path, deadline: deadline)
    }

    /// Whether the collection at `path` is locked now.
    func isLocked(_ path: String, deadline: Deadline) throws -> Bool {
        let reply = try bus.call(
            "read whether the collection is locked",
            destination: destination,
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            method: "Get",
            arguments: GVariantReading.propertyTuple("org.freedesktop.Secret.Collection", "Locked"),
            reply: "(v)",
            deadline: deadline
        )
        defer { g_variant_unref(reply) }
        var locked: gboolean = 0
        var error: UnsafeMutablePointer<GError>?
        guard swift_keyring_boolean_property_reply(reply, "the collection's Locked", &locked, &error) != 0 else {
            defer { g_error_free(error) }
            throw GLibFailure.keyringError(
                error!, operation: "read whether the collection is locked", seconds: deadline.timeout.inSeconds,
                timedOut: false, phase: .call)
        }
        return locked != 0
    }
}
