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
        timer.schedule(deadline: .now() + deadline.remaining.timeInterval)
        timer.setEventHandler { guardian.fire() }
        timer.resume()
        var error: UnsafeMutablePointer<GError>?
        let result = body(cancellable, &error)
        let timedOut = guardian.stop()
        timer.cancel()
        if let error {
            defer { g_error_free(error) }
            throw GLibFailure.keyringError(error, operation: operation, timeout: deadline.timeout, timedOut: timedOut, phase: phase)
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

extension Duration {
    /// The duration in seconds, as `DispatchTime` arithmetic and `KeyringError.timedOut` want it.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, for GLib's own call timeouts (at least 1).
    var milliseconds: Int32 {
        Int32(clamping: max(1, Int64(timeInterval * 1000)))
    }
}
