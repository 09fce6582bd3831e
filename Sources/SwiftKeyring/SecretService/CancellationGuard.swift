internal import CLibSecretShims
import Synchronization

/// Cancels a `GCancellable` when its deadline passes, unless stopped first.
///
/// `@unchecked Sendable`: the only C state is the `GCancellable`, which GLib
/// documents as safe to cancel from any thread; it holds its own reference, and
/// the mutex guarantees it is never cancelled after `stop()` returned.
final class CancellationGuard: @unchecked Sendable {
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let state = Mutex<(stopped: Bool, fired: Bool)>((false, false))

    init(cancellable: UnsafeMutablePointer<GCancellable>) {
        self.cancellable = cancellable
        g_object_ref(cancellable)
    }

    deinit {
        g_object_unref(cancellable)
    }

    /// Cancels the call, unless `stop()` came first.
    func fire() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.fired = true
            g_cancellable_cancel(cancellable)
        }
    }

    /// Cancels the call for a cancelled task, unless `stop()` came first; unlike
    /// `fire()`, this is not a deadline, so the call does not count as timed out.
    func cancel() {
        state.withLock { state in
            guard !state.stopped else { return }
            g_cancellable_cancel(cancellable)
        }
    }

    /// Disarms the deadline; returns whether it had already cancelled the call.
    func stop() -> Bool {
        state.withLock { state in
            state.stopped = true
            return state.fired
        }
    }
}
