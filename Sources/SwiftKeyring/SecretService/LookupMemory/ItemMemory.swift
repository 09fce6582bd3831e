import Synchronization

/// Which item holds a record, and that item's attributes, remembered so that a
/// later lookup asks the daemon once (`GetSecrets` on the remembered path)
/// instead of searching first. Secrets are never remembered: each lookup reads
/// the secret from the daemon.
///
/// What is remembered is trusted only while the daemon has announced nothing.
/// A handler on the connection (`BusConnection.addHandler`) counts every signal the daemon sends;
/// an entry carries the count taken before the search that found it, and a
/// remembered read is kept only when the count is the same after its reply came
/// back. Because the connection hands out messages in the order they arrive, that reply
/// came after every signal the daemon sent before answering; and gnome-keyring
/// announces each change (`ItemCreated`, `ItemDeleted`, `ItemChanged`, a lock)
/// before it replies to the call that made it, whichever process made it. An
/// item changed in any way, a new item (which a search might have found instead),
/// or a new owner of the bus name makes every entry stale at once.
///
/// gnome-keyring announces only the changes made through its own D-Bus methods. A
/// second gnome-keyring of the same user (another login, with its own bus) writes the
/// same keyring files; this daemon reloads them at its next search, silently, and a
/// read on a remembered path (which does not search) would keep the old item. So the
/// watch also counts every change to the files in the daemon's keyring folder
/// (`DaemonKeyringFolder`, through inotify): a write by any process forgets everything.
///
/// Only gnome-keyring is trusted so. KeePassXC sends the same signals for the
/// changes made over D-Bus, but not for every change: a database it reloads or
/// merges, or a KeeShare import, modifies entries with its change notifications
/// switched off, so there a remembered path could silently point at changed
/// attributes. Other daemons, and gnome-keyring behind a bus that does not
/// say who owns the name, keep the search on every lookup.
///
/// The watch starts with a store's second search, so a process that looks up one
/// record (the `swift-keyring` tool) pays for nothing it cannot use.
final class ItemMemory: @unchecked Sendable {
    /// What a lookup may use instead of a search, with the count it is valid at.
    struct Remembered {
        let path: String
        /// The record's identity and attributes, read and checked with its secret.
        let summary: RecordSummary
        let mark: Mark
    }

    /// The daemon's signal count at one moment, from a live watch.
    struct Mark {
        fileprivate let watch: Watch
        fileprivate let changes: UInt32
    }

    /// The count of the daemon's signals, kept by a handler on the connection, and the watch
    /// of its keyring folder.
    fileprivate final class Watch: Sendable {
        /// Signals seen from the daemon, and one more when its name changed owner.
        let changes = Atomic<UInt32>(0)
        /// Set when `org.freedesktop.secrets` changed owner: a new daemon's signals come
        /// from another unique name, which this watch does not count, so nothing it
        /// counted can be trusted from then on.
        let daemonGone = Atomic<Bool>(false)
        let folder: FolderWatch
        /// The handler's id on the connection, set once it is added; `ItemMemory` removes it
        /// when it goes (not this watch's `deinit`, which could run inside the handler, with
        /// the connection's lock held).
        let handler = Atomic<Int>(0)

        init(folder: FolderWatch) {
            self.folder = folder
        }

        /// Counts `message`, a signal: any signal of the daemon at all, not only ItemCreated,
        /// ItemDeleted and ItemChanged (counting one too many only costs a search).
        func count(_ message: BusMessage, daemon: String) {
            if message.sender == daemon {
                changes.add(1, ordering: .sequentiallyConsistent)
            } else if NameOwnerChange.about(SecretServiceNames.busName, in: message) != nil {
                // Marked gone before counting: `mark(of:)` reads in the other order.
                daemonGone.store(true, ordering: .sequentiallyConsistent)
                changes.add(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    private enum Watching {
        /// No watch yet: this many searches were made.
        case notYet(searches: Int)
        /// One thread is asking the bus for a watch; the others search meanwhile.
        case starting
        case on(Watch)
        /// Not gnome-keyring, or the watch could not start: search every time.
        case off
    }

    private struct State {
        var watching = Watching.notYet(searches: 0)
        var entries: [RecordID: Remembered] = [:]
    }

    /// More entries than this and all are forgotten: a store reading many thousands of
    /// records once each gains nothing from them, and memory stays small.
    private static let capacity = 4096

    private let bus: BusConnection
    /// The unique name of the daemon our session belongs to.
    private let daemon: String
    private let state = Mutex(State())
    private let hits = Atomic<Int>(0)

    init(bus: BusConnection, daemon: String) {
        self.bus = bus
        self.daemon = daemon
    }

    deinit {
        if case .on(let watch) = state.withLock({ $0.watching }) {
            bus.removeHandler(watch.handler.load(ordering: .relaxed))
        }
    }

    /// How many lookups were answered with one call on a remembered path.
    var lookupsFromMemory: Int { hits.load(ordering: .relaxed) }

    /// Whether the watch is on, so that findings are remembered: whatever other clients
    /// write meanwhile (each write only makes what is remembered stale), this stays true.
    var isWatching: Bool {
        state.withLock { state in
            if case .on = state.watching { return true }
            return false
        }
    }

    /// What is remembered of `id`, when nothing has changed since it was.
    func recall(_ id: RecordID) -> Remembered? {
        guard let remembered = state.withLock({ $0.entries[id] }), isCurrent(remembered.mark) else { return nil }
        return remembered
    }

    /// Whether the daemon has announced nothing since `mark` was taken. Asked after a
    /// reply came back, it covers every signal sent before that reply.
    func isCurrent(_ mark: Mark) -> Bool {
        self.mark(of: mark.watch)?.changes == mark.changes
    }

    /// Counts a lookup answered from memory.
    func counted<Value>(_ value: Value) -> Value {
        hits.add(1, ordering: .relaxed)
        return value
    }

    /// The count to remember a search's finding at, taken before the search is sent;
    /// `nil` when nothing is remembered (no watch yet, or none possible). The second
    /// search of a store starts the watch, which asks the bus up to three times.
    func markBeforeSearch(deadline: Deadline) -> Mark? {
        enum Next {
            case mark(Watch)
            case start
            case none
        }
        let next: Next = state.withLock { state in
            switch state.watching {
            case .on(let watch):
                return .mark(watch)
            case .notYet(let searches) where searches >= 1:
                state.watching = .starting
                return .start
            case .notYet(let searches):
                state.watching = .notYet(searches: searches + 1)
                return .none
            case .starting, .off:
                return .none
            }
        }
        switch next {
        case .mark(let watch):
            return mark(of: watch)
        case .start:
            let started = startWatching(deadline: deadline)
            state.withLock { $0.watching = started.map { .on($0) } ?? .off }
            return started.flatMap { mark(of: $0) }
        case .none:
            return nil
        }
    }

    /// Remembers that `path` holds `id`, with its `summary`, as of `mark`.
    func remember(_ id: RecordID, at path: String, summary: RecordSummary, since mark: Mark?) {
        guard let mark else { return }
        state.withLock { state in
            if state.entries.count >= Self.capacity {
                state.entries.removeAll()
            }
            state.entries[id] = Remembered(path: path, summary: summary, mark: mark)
        }
    }

    /// Forgets `id`, whose remembered path gave no secret.
    func forget(_ id: RecordID) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// The count now; `nil` once the daemon's name changed owner (nothing is trusted then).
    private func mark(of watch: Watch) -> Mark? {
        // The folder first, then the signals: both counts only grow, so their sum is
        // unchanged only when neither changed.
        guard let folderChanges = watch.folder.count() else { return nil }
        let changes = watch.changes.load(ordering: .sequentiallyConsistent)
        guard !watch.daemonGone.load(ordering: .sequentiallyConsistent) else { return nil }
        return Mark(watch: watch, changes: changes &+ folderChanges)
    }

    /// Installs the filter and the keyring folder's watch, and asks the bus for the daemon's
    /// signals and for news of a new owner of its name, when the daemon is gnome-keyring;
    /// `nil` otherwise, or when its keyring folder cannot be watched.
    private func startWatching(deadline: Deadline) -> Watch? {
        guard let processID = try? bus.processID(ofConnection: daemon, deadline: deadline),
            SecretServiceOwner(processID: processID, program: SecretServiceOwner.program(of: processID)).isGnomeKeyring,
            let folder = DaemonKeyringFolder.path(ofProcess: processID)
        else { return nil }
        guard let folderWatch = FolderWatch(path: folder) else { return nil }
        let watch = Watch(folder: folderWatch)
        let daemon = daemon
        // The handler is in place before the rules: no signal is delivered uncounted. It holds
        // the watch weakly: this memory removes it when it goes.
        // Any signal of the daemon's counts, its header is enough; the bus's NameOwnerChanged is read.
        let interests = [SignalInterest(sender: daemon), SignalInterest.nameOwnerChanged]
        let handler = bus.addHandler(for: interests) { [weak watch] message in watch?.count(message, daemon: daemon) }
        watch.handler.store(handler, ordering: .relaxed)
        do {
            try bus.addMatch("type='signal',sender='\(daemon)'", deadline: deadline)
            try bus.addMatch(BusConnection.nameOwnerChangedRule(SecretServiceNames.busName), deadline: deadline)
        } catch {
            bus.removeHandler(handler)
            return nil
        }
        return watch
    }
}
