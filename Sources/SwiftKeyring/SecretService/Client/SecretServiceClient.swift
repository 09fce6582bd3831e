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
    /// - Throws: as `init(address:collection:deadline:)`, but for connecting.
    init(
        bus: BusConnection, owner: String?, greeted: Bool = false, collection: CollectionChoice = .default,
        deadline: Deadline
    ) throws {
        choice = collection
        self.bus = bus
        opened = Mutex(.none)
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
        // record made once it answered: sent first in the same write is not enough (`HeldOpening`).
        // libsecret's first call is a GetAll of these properties, answered before any other.
        // ConcurrentClientsTests prove it; keep this call first and answered first
        // (`HeldOpening` and the probe wait for its answer too; RoundTripTests checks the flights).
        let service = ServiceInterface(bus: bus, daemon: daemon)
        try service.greeting(deadline: deadline).value(asked: ServiceInterface.greetingAsked, deadline: deadline)
    }

    /// Where the transfer stands: none yet, its `OpenSession` on the way, or open.
    private enum TransferState {
        case none
        case opening(SecretTransfer.Opening)
        case open(SecretTransfer)
    }

    /// Sends `OpenSession` now, unless a session is open or on its way, so that the
    /// daemon answers it with the search (`searchPaths(…openingSession:)`): a first
    /// lookup on an open connection then waits for two round trips, the search and the
    /// session, then the secret. Best effort: whatever fails here fails again, and is
    /// thrown, in `transfer(deadline:)`.
    ///
    /// Called while the connection holds its writes, so it never waits for the lock:
    /// `transfer` keeps it while it waits for the daemon, and may send (another key
    /// exchange) in that time, which the hold would keep back until this returned.
    /// When the lock is taken, a session is on its way already, or `transfer` opens one.
    private func startSession(deadline: Deadline) {
        _ = opened.withLockIfAvailable { state in
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

    /// The Secret Service's own object on this client's daemon.
    var service: ServiceInterface { ServiceInterface(bus: bus, daemon: destination) }

    /// The collection at `path` on this client's daemon.
    func collection(at path: String) -> CollectionInterface {
        CollectionInterface(object: service.object.at(path))
    }

    /// The item at `path` on this client's daemon.
    func item(at path: String) -> ItemInterface {
        ItemInterface(object: service.object.at(path))
    }

    /// The paths of the items matching `attributes`, split by lock state (`Service.SearchItems`);
    /// with a named collection, only its items.
    ///
    /// A named collection's items are those whose paths lie under its path, as the
    /// specification lays item paths out (gnome-keyring, KeePassXC and KWallet all
    /// do): one call, which keeps the split by lock state that `Collection.SearchItems`
    /// does not give. Whatever lies elsewhere is never read, changed or deleted.
    ///
    /// With `openingSession`, the session's `OpenSession` (`startSession`, when none is open
    /// or on its way) goes in the search's write: both arrive together, so a first lookup
    /// waits one round trip for the two, not two.
    func searchPaths(_ attributes: SecretAttributes, in operation: SecretOperation, openingSession: Bool = false)
        throws -> SecretReplies.Found
    {
        let send = { try self.service.searchItems(attributes.values, deadline: operation.deadline) }
        let search =
            try openingSession
            ? bus.sendingTogether(deadline: operation.deadline) {
                let search = try send()
                startSession(deadline: operation.deadline)
                return search
            } : send()
        let scope: String?
        do {
            scope = try searchScope(in: operation).map { $0 + "/" }
        } catch {
            search.forget()
            throw error
        }
        let found = try search.value(in: operation)
        guard let scope else { return found }
        return SecretReplies.Found(
            unlocked: found.unlocked.filter { $0.hasPrefix(scope) }, locked: found.locked.filter { $0.hasPrefix(scope) })
    }

    /// The items matching `attributes`, every locked one first offered to the daemon to unlock
    /// (which may prompt): the one rule by which reads, writes and removals find their items.
    ///
    /// Every match is unlocked, not only when none is readable: a read takes the newest
    /// item among duplicates (`ItemReplacement.precedes`), the one a write keeps, and a
    /// locked newer item passed over would give the value the next write discards; a
    /// write or a removal must see every item it replaces or deletes.
    /// `openingSession` as in `searchPaths`.
    /// - Throws: `KeyringError.locked` when some stay locked, or the calls' errors.
    func unlockedPaths(_ attributes: SecretAttributes, in operation: SecretOperation, openingSession: Bool = false)
        throws -> [String]
    {
        let found = try searchPaths(attributes, in: operation, openingSession: openingSession)
        guard !found.locked.isEmpty else { return found.unlocked }
        let unlocked = try unlock(found.locked, in: operation)
        guard Set(unlocked) == Set(found.locked) else { throw KeyringError.locked }
        return found.unlocked + unlocked
    }

    /// Asks the daemon to unlock `paths`; returns the paths now unlocked. An unlock prompt
    /// waits within the operation's prompt bound (see `SecretPrompt.outcome`).
    func unlock(_ paths: [String], in operation: SecretOperation) throws -> [String] {
        try UnlockPrompt.unlock(paths, with: service, in: operation)
    }

    /// Asks the daemon to unlock the collection new items go to, so an item can be
    /// created in it; the daemon may prompt, as in `unlock`.
    func unlockCollection(in operation: SecretOperation) throws {
        _ = try unlock([collectionForWriting(in: operation).path], in: operation)
    }

    /// The attributes a read of an item's `Attributes` gave; `nil` when the item vanished.
    /// - Throws: `.backend` for attributes of another type than `a{ss}`: an item whose
    ///   attributes cannot be read is no item we can tell apart from ours, and must not pass
    ///   for a foreign one.
    func table(_ read: SecretReplies.Attributes?) throws -> [String: String]? {
        switch read {
        case nil: return nil
        case .table(let table): return table
        case .otherType(let type): throw SecretReplies.wrongType("an item's attributes", type, "a{ss}")
        }
    }

    /// The secrets of a `GetSecrets` reply, still encoded, by path: only those of the `asked`
    /// paths (a daemon leaves out an item gone or locked, and whatever else it names is none
    /// of ours); `nil` for `nil`, a reply saying the object vanished.
    private func chosen(_ entries: [SecretReplies.Secret]?, asked: [String]) -> [String: SecretTransfer.Encoded]? {
        guard let entries else { return nil }
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
    func record(at path: String, in operation: SecretOperation) throws -> StoredRecord? {
        let transfer = try transfer(deadline: operation.deadline)
        // A failure may only mean the item was deleted since the search (KWallet's GetSecrets says so
        // with InvalidArgs): see `absentIfGone`.
        return try absentIfGone(path, in: operation) { () -> StoredRecord? in
            // Both in one write: the daemon reads them as one flight.
            let (attributesCall, secretCall) = try bus.sendingTogether(deadline: operation.deadline) {
                let attributesCall = try item(at: path).attributes(deadline: operation.deadline)
                do {
                    return (
                        attributesCall,
                        try service.getSecrets([path], session: transfer.path, deadline: operation.deadline)
                    )
                } catch {
                    attributesCall.forget()
                    throw error
                }
            }
            let attributesReply: BusMessage
            do {
                attributesReply = try attributesCall.reply(in: operation)
            } catch {
                secretCall.forget()
                throw error
            }
            let secretReply = try secretCall.reply(in: operation)
            // Either call may be the one that says the item vanished meanwhile.
            guard let table = try table(attributesCall.valueUnlessVanished(of: attributesReply)),
                let encoded = try chosen(secretCall.valueUnlessVanished(of: secretReply), asked: [path])?[path],
                let summary = SecretAttributes.summary(from: table)
            else { return nil }
            return StoredRecord(id: summary.id, metadata: summary.metadata, secret: try transfer.decode(encoded))
        } ?? nil
    }

    /// Reads one item's secret only; `nil` when the daemon gives none (the item vanished, or is locked).
    func secret(at path: String, in operation: SecretOperation) throws -> [UInt8]? {
        let transfer = try transfer(deadline: operation.deadline)
        let call = try service.getSecrets([path], session: transfer.path, deadline: operation.deadline)
        return try chosen(call.valueUnlessVanished(in: operation), asked: [path])?[path].map { try transfer.decode($0) }
    }

    /// The secrets of the items at `paths`, in one call; items the daemon leaves out (gone,
    /// or locked) are left out.
    func secrets(at paths: [String], in operation: SecretOperation) throws -> [String: [UInt8]] {
        guard !paths.isEmpty else { return [:] }
        let transfer = try transfer(deadline: operation.deadline)
        let call = try service.getSecrets(paths, session: transfer.path, deadline: operation.deadline)
        // Not an item's call: an error, even "no such object", is the error it is.
        return try chosen(call.value(in: operation), asked: paths)!.mapValues { try transfer.decode($0) }
    }

    /// The secret at a remembered path, in one call; `nil` when it must be looked up
    /// the long way: the item is gone or locked (gnome-keyring leaves such items out
    /// of `GetSecrets`' reply), or the daemon announced a change while the call was
    /// in flight. A timeout or a cancellation is thrown, not retried.
    func secret(remembered: ItemMemory.Remembered, of id: RecordID, in operation: SecretOperation) throws -> [UInt8]? {
        let secret: [UInt8]?
        do {
            secret = try self.secret(at: remembered.path, in: operation)
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
    func summaries(at paths: [String], in operation: SecretOperation) throws -> [RecordSummary] {
        try items(at: paths, in: operation).map(\.summary)
    }

    /// As `summaries(at:)`, each with the path of its item, so that a record chosen among them is
    /// read without another search.
    func items(at paths: [String], in operation: SecretOperation) throws -> [(path: String, summary: RecordSummary)] {
        let read = try attributes(at: paths, in: operation)
        return paths.compactMap { path in read[path].flatMap(SecretAttributes.summary(from:)).map { (path, $0) } }
    }

    /// The attributes of the items at `paths`, keyed by path (reads in flight
    /// together); items that vanished meanwhile are left out.
    func attributes(at paths: [String], in operation: SecretOperation) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        // At most a window of calls in flight at once: a long list waits about one round
        // trip per window rather than per item, and stays far below the bus's limit on pending replies.
        for start in stride(from: 0, to: paths.count, by: Self.attributesWindow) {
            let window = paths[start..<min(start + Self.attributesWindow, paths.count)]
            var calls: [PendingReply<SecretReplies.Attributes>] = []
            defer { calls.forEach { $0.forget() } }
            for path in window { calls.append(try item(at: path).attributes(deadline: operation.deadline)) }
            for (path, call) in zip(window, calls) {
                if let table = try table(call.valueUnlessVanished(in: operation)) { result[path] = table }
            }
        }
        return result
    }

    /// How many `Attributes` reads `attributes(at:)` keeps in flight at once.
    private static let attributesWindow = 32

    /// Creates an item for `record` in the collection in use (never replacing
    /// one: see `ItemReplacement`); returns the item's path. A prompt the daemon
    /// asks for first (KeePassXC confirms each new item) is completed within the
    /// operation's prompt bound (`SecretPrompt.outcome`).
    /// - Throws: `KeyringError.confirmationDismissed` when the person refuses it, or the calls' errors.
    func createItem(_ record: StoredRecord, in operation: SecretOperation) throws -> String {
        let collection = try collectionForWriting(in: operation).path
        var secret = try transfer(deadline: operation.deadline).encode(record.secret, contentType: Self.contentType(record))
        defer { secret.wipe() }
        let created = try self.collection(at: collection).createItem(
            label: SecretLabel.label(for: record), attributes: SecretAttributes.all(record).values, secret: secret,
            in: operation)
        switch try SecretPrompt.outcome(of: created.prompt, on: bus, daemon: destination, unlocking: false, in: operation) {
        case .none:
            guard created.path != SecretServiceNames.none else {
                throw BusFailure.invalidReply("CreateItem returned no item")
            }
            return created.path
        case .dismissed:
            throw KeyringError.confirmationDismissed
        case .completed(let paths):
            guard let path = paths.first else { throw BusFailure.invalidReply("CreateItem's prompt gave no item") }
            return path
        }
    }

    /// Deletes the item at `path`, completing a prompt the daemon asks for first (KeePassXC
    /// may confirm each deletion).
    /// - Returns: `false` when the item was already gone (another process deleted it since the search).
    /// - Throws: `KeyringError.promptDismissed` when the person refuses it, or the calls' errors.
    func delete(_ path: String, in operation: SecretOperation) throws -> Bool {
        guard let prompt = try item(at: path).delete(in: operation) else { return false }
        if case .dismissed = try SecretPrompt.outcome(of: prompt, on: bus, daemon: destination, unlocking: false, in: operation) {
            throw KeyringError.promptDismissed
        }
        return true
    }

    /// Whether the collection in use is locked now.
    /// - Throws: `.serviceUnavailable(reason: .noCollection)` when there is none.
    func isCollectionLocked(in operation: SecretOperation) throws -> Bool {
        try isLocked(collection(in: operation).path, in: operation)
    }

    /// Whether the collection at `path` is locked now.
    func isLocked(_ path: String, in operation: SecretOperation) throws -> Bool {
        try collection(at: path).isLocked(in: operation.step("read whether the collection is locked"))
    }
}
