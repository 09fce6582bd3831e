import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Whether the keyring operation running on this thread was cancelled, and
/// what to do at once when it is.
///
/// The stores are synchronous, and their blocking waits (a D-Bus call, an
/// unlock prompt, a file lock) run on the library's own threads. The async face
/// binds one of these to the thread for the length of an operation; a cancelled
/// task cancels it, and each wait beneath either registers a handler (a D-Bus
/// call cancels its `GCancellable`, a prompt is dismissed) or checks
/// `isCancelled` as it polls (a file lock). A synchronous caller has none bound,
/// so nothing changes for it.
package final class OperationCancellation: Sendable {
    private struct State {
        var cancelled = false
        var nextHandler: UInt64 = 0
        var handlers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// A cancellation that has not fired.
    package init() {}

    /// Whether `cancel()` was called.
    package var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// Marks the operation cancelled and runs every registered handler once.
    package func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        handlers.forEach { $0() }
    }

    /// Runs `handler` when the operation is cancelled, or at once if it already is.
    /// - Returns: the registration to pass to `unregister`, or `nil` when `handler` already ran.
    package func register(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLock { state -> UInt64? in
            guard !state.cancelled else { return nil }
            state.nextHandler += 1
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        if id == nil { handler() }
        return id
    }

    /// Forgets a handler; it never runs after this returns.
    package func unregister(_ id: UInt64?) {
        guard let id else { return }
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// The cancellation bound to the calling thread, if any.
    package static var current: OperationCancellation? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<OperationCancellation>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Throws `CancellationError` when the operation on this thread was cancelled.
    package static func check() throws {
        if current?.isCancelled == true { throw CancellationError() }
    }

    /// Runs `body` with this cancellation bound to the calling thread, then puts back what was bound before.
    package func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(Self.threadKey)
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.threadKey, previous) }
        return try body()
    }

    /// Runs `body` with no cancellation bound to the calling thread, for steps
    /// that must not be cut short once begun (a write whose D-Bus call may take
    /// effect in the daemon after the caller stopped waiting for it). The
    /// deadline still bounds them.
    package static func withoutCancellation<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, nil)
        defer { pthread_setspecific(threadKey, previous) }
        return try body()
    }

    /// One key for the process; the value is unretained because `bind` keeps `self` alive while it is set.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
