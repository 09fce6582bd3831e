internal import KeyringCrypto
import Synchronization

/// The Secret Service calls a `SecretServiceStore` makes, each bounded by a deadline, on
/// a bus connection of our own (`BusConnection`).
///
/// It owns its connection and, once a secret must cross the bus, a transfer of its own
/// (``SecretTransfer``, the specification's session) that encrypts secrets, so items,
/// prompts and secrets all travel on that connection. The store decides what to call;
/// this type only calls and checks what comes back.
///
/// The daemon is whoever the bus says owns `org.freedesktop.secrets` when the client
/// opens (the bus's own replies come only from the bus), never whoever answers a call
/// first: every call goes to that unique name, and replies, prompts and signals are taken
/// only from it. A new owner later is no switch: calls to the old one fail, and
/// `ReopeningClient` opens a client on the new one.
///
/// `Sendable`: the connection is safe to share between threads, and the transfer is
/// opened once under a lock and only read after.
final class SecretServiceClient: Sendable {
    let bus: BusConnection
    /// The transfer secrets are encrypted for, opened by the first call that carries
    /// a secret (listing and removing never do); freed with this client.
    private let opened: Mutex<TransferState>
    /// A search sent in the connection's first flight (`HeldOpening`), its attributes and
    /// serial, taken by the first `searchPaths` that asks the same.
    private let presentSearch: Mutex<(attributes: [String: String], serial: UInt32)?>
    /// The unique bus name of the daemon, as the bus named the owner of
    /// `org.freedesktop.secrets` when this client opened.
    let destination: String
    /// Which items hold which records, for lookups in one call; it lives and dies
    /// with this client, so a new daemon starts with nothing remembered.
    let memory: ItemMemory
    /// The collection the caller asked for, and the one it resolved to once found
    /// (see `SecretServiceClient+Collection.swift`); a new client resolves anew.
    let choice: CollectionChoice
    let resolved = Mutex<ResolvedCollection?>(nil)

    /// Connects to the bus at `address` and greets the daemon.
    /// - Throws: `KeyringError.serviceUnavailable` (no bus, no daemon) or `.timedOut`.
    convenience init(address: String, collection: CollectionChoice = .default, deadline: Deadline) throws {
        try self.init(
            bus: BusConnection(address: address, deadline: deadline), owner: nil, collection: collection, deadline: deadline)
    }

    /// Greets the daemon on `bus`, a connection on which nothing but the bus was called yet,
    /// unless `greeted` says the greeting was answered already (see `ProbedBus`,
    /// `HeldOpening`); `owner` is the daemon's unique name when the bus already said it.
    /// `session` is an `OpenSession` already sent to it, `search` a `SearchItems`.
    /// - Throws: as `init(address:collection:deadline:)`, but for connecting.
    init(
        bus: BusConnection, owner: String?, greeted: Bool = false, session: SecretTransfer.Opening? = nil,
        search: (attributes: [String: String], serial: UInt32)? = nil, collection: CollectionChoice = .default,
        deadline: Deadline
    ) throws {
        choice = collection
        self.bus = bus
        opened = Mutex(session.map(TransferState.opening) ?? .none)
        presentSearch = Mutex(search)
        let daemon = try owner ?? bus.startedOwner(SecretServiceNames.busName, deadline: deadline)
        destination = daemon
        memory = ItemMemory(bus: bus, daemon: daemon)
        guard !greeted else { return }
        // The greeting first, always: a read of the Service's Collections property. gnome-keyring 42
        // makes its record of a client in an idle callback that a message filter queues for each
        // incoming message, and its OpenSession, SearchItems, item and collection handlers look
        // that record up; under many new connections at once a handler can run before the record
        // exists, fail without setting an error, and (on OpenSession or a property read) abort
        // the daemon on the NULL reply (gnome-keyring issues 190, 194, 195; Debian bug 1147303).
        // The Service's own properties are read through the daemon's internal session, never the
        // client's record, so this call is safe whenever it runs, and the calls after it find the
        // record made. libsecret's first call is a GetAll of these properties for the same reason.
        // ConcurrentClientsTests prove it; keep this call first (`HeldOpening` and the probe send it first too).
        try Self.greetingAnswered(
            bus, bus.reply(to: Self.sendGreeting(bus, to: daemon, deadline: deadline), Self.greeting, deadline: deadline))
    }

    /// What a greeting's wait is called in errors.
    static let greeting = "connect to the Secret Service"

    /// Sends the greeting, a read of the Service's `Collections` property, to `daemon` (a
    /// unique name, or the well-known name bound to `owner`); the reply is checked by `greetingAnswered`.
    static func sendGreeting(
        _ bus: BusConnection, to daemon: String, owner: BusConnection.OwnerQuery? = nil, deadline: Deadline
    ) throws -> UInt32 {
        try bus.send(
            destination: daemon, path: SecretServiceNames.servicePath, interface: SecretServiceNames.properties,
            member: "Get", signature: "ss", reply: "v", decode: SecretReplies.anyVariant, owner: owner,
            deadline: deadline
        ) {
            $0.string(SecretServiceNames.service)
            $0.string("Collections")
        }
    }

    /// Checks the greeting's reply: a variant, or the daemon's error thrown.
    static func greetingAnswered(_ bus: BusConnection, _ reply: BusMessage) throws {
        _ = try BusConnection.decoded(
            Void.self, of: reply, interface: SecretServiceNames.properties, method: "Get", expected: "v")
    }

    /// Where the transfer stands: none yet, its `OpenSession` on the way, or open.
    private enum TransferState {
        case none
        case opening(SecretTransfer.Opening)
        case open(SecretTransfer)
    }

    /// Sends `OpenSession` now, unless a session is open or on its way, so that the
    /// daemon answers it while the caller searches: a lookup then waits for the
    /// search, the session and the secret in three round trips, not four. Best
    /// effort: whatever fails here fails again, and is thrown, in `transfer(deadline:)`.
    func startSession(deadline: Deadline) {
        opened.withLock { state in
            guard case .none = state,
                let opening = try? SecretTransfer.Opening(bus: bus, daemon: destination, deadline: deadline)
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
                opening = try SecretTransfer.Opening(bus: bus, daemon: destination, deadline: deadline)
            }
            // The opening is spent by the call below, whatever it returns.
            state = .none
            for attempt in 1...Self.openingAttempts {
                if let transfer = try opening.finish(deadline: deadline) {
                    state = .open(transfer)
                    return transfer
                }
                if attempt < Self.openingAttempts {
                    opening = try SecretTransfer.Opening(bus: bus, daemon: destination, deadline: deadline)
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
        guard let owner = try? bus.nameOwner(SecretServiceNames.busName, deadline: deadline) else { return true }
        return owner != destination
    }

    /// The paths of the items matching `attributes`, split by lock state (`Service.SearchItems`);
    /// with a named collection, only its items.
    ///
    /// A named collection's items are those whose paths lie under its path, as the
    /// specification lays item paths out (gnome-keyring, KeePassXC and KWallet all
    /// do): one call, which keeps the split by lock state that `Collection.SearchItems`
    /// does not give. Whatever lies elsewhere is never read, changed or deleted.
    ///
    /// With `openingSession`, the session's opening (`startSession`) is started while the
    /// search is in flight: the key pair is made while the daemon searches, not before or after.
    func searchPaths(_ attributes: SecretAttributes, _ operation: String, openingSession: Bool = false, deadline: Deadline)
        throws -> (unlocked: [String], locked: [String])
    {
        let sent = presentSearch.withLock { present in
            defer { present = nil }
            return present
        }
        let search: UInt32
        if let sent, sent.attributes == attributes.values {
            search = sent.serial
        } else {
            if let sent { bus.forget(sent.serial) }
            search = try Self.sendSearch(bus, to: destination, attributes, deadline: deadline)
        }
        let scope: String?
        do {
            scope = try searchScope(deadline: deadline).map { $0 + "/" }
        } catch {
            bus.forget(search)
            throw error
        }
        if openingSession { startSession(deadline: deadline) }
        let reply = try BusConnection.decoded(
            SecretReplies.Found.self, of: bus.reply(to: search, operation, deadline: deadline),
            interface: SecretServiceNames.service, method: "SearchItems", expected: "aoao")!
        let found = (unlocked: reply.unlocked, locked: reply.locked)
        guard let scope else { return found }
        return (found.unlocked.filter { $0.hasPrefix(scope) }, found.locked.filter { $0.hasPrefix(scope) })
    }

    /// Sends `Service.SearchItems` for `attributes` to `daemon` (a unique name, or the
    /// well-known name bound to `owner`); the reply is read as `searchPaths` reads it.
    static func sendSearch(
        _ bus: BusConnection, to daemon: String, owner: BusConnection.OwnerQuery? = nil, _ attributes: SecretAttributes,
        deadline: Deadline
    ) throws -> UInt32 {
        try bus.send(
            destination: daemon, path: SecretServiceNames.servicePath, interface: SecretServiceNames.service,
            member: "SearchItems", signature: "a{ss}", reply: "aoao", decode: SecretReplies.searchItems, owner: owner,
            deadline: deadline
        ) { $0.stringTable(attributes.values) }
    }

    /// Asks the daemon to unlock `paths`; returns the paths now unlocked.
    ///
    /// When the daemon asks the person (an unlock prompt), the wait is bounded by
    /// `promptTimeout` rather than `deadline` (see `UnlockPrompt`), and `deadline`
    /// is renewed afterwards: a person's answer must not use up the bound of the
    /// calls that follow it.
    func unlock(_ paths: [String], _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws -> [String] {
        let unlocked = try UnlockPrompt.unlock(
            paths, on: bus, daemon: destination, operation, deadline: deadline, promptTimeout: prompt.timeout,
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

    /// Sends `Properties.Get` of an item's `Attributes`; the reply is read by `attributes(in:)`.
    func sendAttributesRead(_ path: String, deadline: Deadline) throws -> UInt32 {
        try bus.send(
            destination: destination, path: path, interface: SecretServiceNames.properties, member: "Get",
            signature: "ss", reply: "v", decode: SecretReplies.attributes, deadline: deadline
        ) {
            $0.string(SecretServiceNames.item)
            $0.string("Attributes")
        }
    }

    /// The attributes in the reply to `sendAttributesRead`; `nil` when the item vanished.
    /// - Throws: the daemon's error, or `.backend` for attributes of another type than `a{ss}`:
    ///   an item whose attributes cannot be read is no item we can tell apart from ours,
    ///   and must not pass for a foreign one.
    func attributes(in reply: BusMessage) throws -> [String: String]? {
        guard
            let read = try BusConnection.decoded(
                SecretReplies.Attributes.self, of: reply, interface: SecretServiceNames.properties, method: "Get",
                expected: "v", vanishing: true)
        else { return nil }
        switch read {
        case .table(let table): return table
        case .otherType(let type): throw Self.wrongType("an item's attributes", type, "a{ss}")
        }
    }

    /// Sends `Service.GetSecrets` for the items at `paths`; the reply is read by `secrets(in:asked:)`.
    private func sendSecretsRead(_ paths: [String], transfer: SecretTransfer, deadline: Deadline) throws -> UInt32 {
        try bus.send(
            destination: destination, path: SecretServiceNames.servicePath, interface: SecretServiceNames.service,
            member: "GetSecrets", signature: "aoo", reply: "a{o(oayays)}", decode: SecretReplies.getSecrets,
            deadline: deadline
        ) {
            $0.strings(paths)
            $0.string(transfer.path)
        }
    }

    /// The secrets of a `GetSecrets` reply, still encoded, by path: only those of the `asked`
    /// paths (a daemon leaves out an item gone or locked, and whatever else it names is none
    /// of ours); `nil` when the daemon said the object vanished, where `vanishing`.
    private func secrets(in reply: BusMessage, asked: [String], vanishing: Bool) throws -> [String: SecretTransfer.Encoded]? {
        guard
            let entries = try BusConnection.decoded(
                [SecretReplies.Secret].self, of: reply, interface: SecretServiceNames.service, method: "GetSecrets",
                expected: "a{o(oayays)}", vanishing: vanishing)
        else { return nil }
        var secrets: [String: SecretTransfer.Encoded] = [:]
        for entry in entries {
            guard asked.contains(entry.item) else {
                // None of ours: its bytes are wiped all the same.
                SecretTransfer.wipeShared(entry.encoded.value)
                continue
            }
            secrets[entry.item] = entry.encoded
        }
        return secrets
    }

    /// Reads one item, attributes and secret; `nil` when it is not one of ours,
    /// gives no secret, or was deleted since the search.
    ///
    /// The `Attributes` property and the secret are asked for together: one round trip.
    func record(at path: String, _ operation: String, deadline: Deadline) throws -> StoredRecord? {
        let transfer = try transfer(deadline: deadline)
        // A failure may only mean the item was deleted since the search (KWallet's GetSecrets says so
        // with InvalidArgs): see `absentIfGone`.
        return try absentIfGone(path, deadline: deadline) { () -> StoredRecord? in
            // Both in one write: the daemon reads them as one flight.
            let (attributesCall, secretCall) = try bus.sendingTogether(deadline: deadline) {
                let attributesCall = try sendAttributesRead(path, deadline: deadline)
                do {
                    return (attributesCall, try sendSecretsRead([path], transfer: transfer, deadline: deadline))
                } catch {
                    bus.forget(attributesCall)
                    throw error
                }
            }
            let attributesReply: BusMessage
            do {
                attributesReply = try bus.reply(to: attributesCall, operation, deadline: deadline)
            } catch {
                bus.forget(secretCall)
                throw error
            }
            let secretReply = try bus.reply(to: secretCall, operation, deadline: deadline)
            // Either call may be the one that says the item vanished meanwhile.
            guard let table = try attributes(in: attributesReply),
                let encoded = try secrets(in: secretReply, asked: [path], vanishing: true)?[path],
                let summary = SecretAttributes.summary(from: table)
            else { return nil }
            return StoredRecord(id: summary.id, metadata: summary.metadata, secret: try transfer.decode(encoded))
        } ?? nil
    }

    /// Reads one item's secret only; `nil` when the daemon gives none (the item vanished, or is locked).
    func secret(at path: String, _ operation: String, deadline: Deadline) throws -> [UInt8]? {
        let transfer = try transfer(deadline: deadline)
        let reply = try bus.reply(
            to: sendSecretsRead([path], transfer: transfer, deadline: deadline), operation, deadline: deadline)
        return try secrets(in: reply, asked: [path], vanishing: true)?[path].map { try transfer.decode($0) }
    }

    /// The secrets of the items at `paths`, in one call; items the daemon leaves out (gone,
    /// or locked) are left out.
    func secrets(at paths: [String], _ operation: String, deadline: Deadline) throws -> [String: [UInt8]] {
        guard !paths.isEmpty else { return [:] }
        let transfer = try transfer(deadline: deadline)
        let reply = try bus.reply(
            to: sendSecretsRead(paths, transfer: transfer, deadline: deadline), operation, deadline: deadline)
        // Not an item's call: an error, even "no such object", is the error it is.
        return try secrets(in: reply, asked: paths, vanishing: false)!.mapValues { try transfer.decode($0) }
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

    /// The attributes of the items at `paths`, keyed by path (reads in flight
    /// together); items that vanished meanwhile are left out.
    func attributes(at paths: [String], _ operation: String, deadline: Deadline) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        // At most a window of calls in flight at once: a long list waits about one round
        // trip per window rather than per item, and stays far below the bus's limit on pending replies.
        for start in stride(from: 0, to: paths.count, by: Self.attributesWindow) {
            let window = paths[start..<min(start + Self.attributesWindow, paths.count)]
            var serials: [UInt32] = []
            defer { serials.forEach(bus.forget) }
            for path in window { serials.append(try sendAttributesRead(path, deadline: deadline)) }
            for (path, serial) in zip(window, serials) {
                if let table = try attributes(in: bus.reply(to: serial, operation, deadline: deadline)) { result[path] = table }
            }
        }
        return result
    }

    /// How many `Attributes` reads `attributes(at:)` keeps in flight at once.
    private static let attributesWindow = 32

    /// The error for a reply value of another type than the one the specification gives.
    /// The error for a reply value of type `type` where the specification gives `expected`.
    static func wrongType(_ what: String, _ type: String, _ expected: String) -> KeyringError {
        BusFailure.invalidReply("the Secret Service sent \(what) of type \(type), not \(expected)")
    }

    /// Creates an item for `record` in the collection in use (never replacing
    /// one: see `ItemReplacement`); returns the item's path. A prompt the daemon
    /// asks for first (KeePassXC confirms each new item) is shown and waited for
    /// within `prompt`'s bound, and `deadline` is renewed after it, as in `unlock`.
    /// - Throws: `KeyringError.promptDismissed` when the person refuses it, or the calls' errors.
    func createItem(_ record: StoredRecord, _ operation: String, deadline: inout Deadline, prompt: PromptBound) throws -> String {
        let attributes = SecretAttributes.all(record)
        let collection = try collectionForWriting(operation, deadline: &deadline, prompt: prompt).path
        var secret = try transfer(deadline: deadline).encode(record.secret, contentType: Self.contentType(record))
        defer { secret.wipe() }
        // Label and attributes, the secret as the transfer encoded it, and replace off (KeePassXC
        // answers replace with a confirmation nobody sees, and matches it by a subset of the
        // attributes; ItemReplacement replaces instead).
        let reply = try bus.call(
            operation, destination: destination, path: collection, interface: SecretServiceNames.collection,
            method: "CreateItem", signature: "a{sv}(oayays)b", reply: "oo", deadline: deadline,
            decode: BasicReplies.twoPaths
        ) { arguments in
            arguments.properties([
                (SecretServiceNames.itemLabel, "s", { $0.string(SecretLabel.label(for: record)) }),
                (SecretServiceNames.itemAttributes, "a{ss}", { $0.stringTable(attributes.values) }),
            ])
            secret.write(into: &arguments)
            arguments.boolean(false)
        }
        // The new item's path ("/" when a prompt must create it) and the prompt's ("/" for none).
        let item = reply[0]
        let promptToShow = reply[1]
        if promptToShow == SecretServiceNames.none {
            guard item != SecretServiceNames.none else {
                throw BusFailure.invalidReply("CreateItem returned no item")
            }
            return item
        }
        guard let created = try completePrompt(promptToShow, operation, deadline: &deadline, prompt: prompt) else {
            throw KeyringError.confirmationDismissed
        }
        guard let path = created.first else {
            throw BusFailure.invalidReply("CreateItem's prompt gave no item")
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
                operation, destination: destination, path: path, interface: SecretServiceNames.item, method: "Delete",
                reply: "o", deadline: deadline, decode: BasicReplies.path)
        else { return false }
        let promptToShow = reply
        guard promptToShow != SecretServiceNames.none else { return true }
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
            path, on: bus, daemon: destination, operation, unlocking: false, callTimeout: deadline.timeout,
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

    /// Whether the collection at `path` is locked now: a `Locked` sent as anything but a
    /// boolean is an error, never read as unlocked.
    func isLocked(_ path: String, deadline: Deadline) throws -> Bool {
        let reply = try property(
            SecretServiceNames.collection, "Locked", of: path, "read whether the collection is locked",
            deadline: deadline)
        guard case .boolean(let locked) = reply else {
            throw Self.wrongType("the collection's Locked", reply.type, "b")
        }
        return locked
    }

    /// One property of the object at `path` (`Properties.Get`).
    func property(_ interface: String, _ name: String, of path: String, _ operation: String, deadline: Deadline) throws
        -> PropertyValue
    {
        try bus.call(
            operation, destination: destination, path: path, interface: SecretServiceNames.properties, method: "Get",
            signature: "ss", reply: "v", deadline: deadline, decode: BasicReplies.property
        ) {
            $0.string(interface)
            $0.string(name)
        }
    }
}
