internal import CLibSecretShims

/// Runs one blocking GLib or libsecret call, bounded by a deadline.
///
/// libsecret's sync calls have no overall timeout of their own (a prompt may
/// wait for ever), so every call gets a fresh `GCancellable` that
/// `DeadlineWatcher` cancels when the deadline passes. A call cut short that way becomes
/// `KeyringError.timedOut`; any other `GError` goes through `GLibFailure`.
enum GLibCall {
    /// Where failures of a call are reported: while connecting to the bus every
    /// failure means "no session bus"; afterwards the error itself says.
    enum Phase {
        case connect
        case call
    }

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
        let watch = DeadlineWatcher.shared.watch(guardian, until: deadline.end)
        // A cancelled task (the async face) cancels the call in flight the same way a deadline does.
        let cancellation = OperationCancellation.current
        let registration = cancellation?.register { guardian.cancel() }
        var error: UnsafeMutablePointer<GError>?
        let result = body(cancellable, &error)
        cancellation?.unregister(registration)
        DeadlineWatcher.shared.unwatch(watch)
        let timedOut = guardian.stop()
        if let error {
            defer { g_error_free(error) }
            if cancellation?.isCancelled == true && !timedOut {
                throw CancellationError()
            }
            throw GLibFailure.keyringError(
                error, operation: operation, seconds: deadline.timeout.inSeconds, timedOut: timedOut, phase: phase
            )
        }
        return result
    }
}
