internal import CLibSecret
import Dispatch
import Synchronization

/// Runs one blocking GLib or libsecret call, bounded by a deadline.
///
/// libsecret's sync calls have no overall timeout of their own (a prompt may
/// wait for ever), so every call gets a fresh `GCancellable` that a timer
/// cancels when the deadline passes. A call cut short that way becomes
/// `KeyringError.timedOut`; any other `GError` goes through `GLibFailure`.
enum GLibCall {
    /// Where failures of a call are reported: while connecting to the bus every
    /// failure means "no session bus"; afterwards the error itself says.
    enum Phase {
        case connect
        case call
    }

    private static let timers = DispatchQueue(label: "swift-keyring.secret-service.timeouts")

    /// Calls `body` with a cancellable that fires at the deadline and an error slot;
    /// returns what it returned, or throws the error it left, as a `KeyringError`.
    static func run<Result>(
        _ operation: String,
        deadline: Deadline,
        phase: Phase = .call,
        _ body: (UnsafeMutablePointer<GCancellable>, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result
    ) throws -> Result {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) }
        let guardian = CancellationGuard(cancellable: cancellable)
        let timer = DispatchSource.makeTimerSource(queue: timers)
        timer.schedule(deadline: .now() + Deadline.seconds(deadline.remaining))
        timer.setEventHandler { guardian.fire() }
        timer.resume()
        var error: UnsafeMutablePointer<GError>?
        let result = body(cancellable, &error)
        let timedOut = guardian.stop()
        timer.cancel()
        if let error {
            defer { g_error_free(error) }
            throw GLibFailure.keyringError(
                error, operation: operation, seconds: Deadline.seconds(deadline.timeout), timedOut: timedOut, phase: phase
            )
        }
        return result
    }
}

/// Cancels a `GCancellable` when its timer fires, unless stopped first.
///
/// `@unchecked Sendable`: the only C state is the `GCancellable`, which GLib
/// documents as safe to cancel from any thread; it holds its own reference, and
/// the mutex guarantees it is never cancelled after `stop()` returned.
private final class CancellationGuard: @unchecked Sendable {
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let state = Mutex<(stopped: Bool, fired: Bool)>((false, false))

    init(cancellable: UnsafeMutablePointer<GCancellable>) {
        self.cancellable = cancellable
        g_object_ref(cancellable)
    }

    deinit {
        g_object_unref(cancellable)
    }

    func fire() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.fired = true
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
