/// Cancels the D-Bus calls whose deadline has passed, from one thread for the
/// whole process.
///
/// A `DispatchSource` timer per call, armed and cancelled around it, cost about
/// 150 µs a call: 300 µs of a 1.9 ms password lookup against gnome-keyring
/// (measured with and without it, in one daemon). Here starting and ending a
/// watch only takes a lock. The thread sleeps until the earliest deadline, and a
/// new watch wakes it only when it ends sooner than that, which is rare when
/// every call of a store has the same timeout.
///
/// `@unchecked Sendable`: every field is read and written with `condition` held.
final class DeadlineWatcher: @unchecked Sendable {
    /// The process's watcher; like every `static let`, it is made on first use,
    /// so its thread starts with the first D-Bus call.
    static let shared = DeadlineWatcher()

    private let condition = MonotonicCondition()
    private var watches: [UInt64: (end: ContinuousClock.Instant, guardian: CancellationGuard)] = [:]
    private var lastID: UInt64 = 0
    /// The deadline the thread sleeps until; `nil` while it waits for any watch.
    private var wakeAt: ContinuousClock.Instant?

    private init() {
        DetachedThread.start { [self] in run() }
    }

    /// Fires `guardian` at `end` unless `unwatch` comes first; returns the watch's id.
    func watch(_ guardian: CancellationGuard, until end: ContinuousClock.Instant) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastID += 1
        watches[lastID] = (end, guardian)
        if wakeAt.map({ end < $0 }) ?? true {
            condition.signal()
        }
        return lastID
    }

    /// Ends the watch `id`; its guardian is never fired after this returns.
    func unwatch(_ id: UInt64) {
        condition.lock()
        watches[id] = nil
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            let now = ContinuousClock.now
            let due = watches.filter { $0.value.end <= now }
            for (id, watch) in due {
                watch.guardian.fire()
                watches[id] = nil
            }
            wakeAt = watches.values.map(\.end).min()
            if let wakeAt {
                condition.wait(for: wakeAt - now)
            } else {
                condition.wait()
            }
        }
    }
}
