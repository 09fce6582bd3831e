/// One public ``Keyring`` call as a store sees it: the call's ``Deadline`` and its cancellation.
///
/// ``Keyring`` makes one at the start of every public call and passes it to each
/// ``CredentialStore`` method that call makes, so a store (ours or yours) needs no
/// clock and no task of its own to know when to give up:
///
/// - every wait gets at most `deadline.remaining`, and a wait that runs out throws
///   `call.deadline.timedOut("what waited")`;
/// - a call of the async face whose task is cancelled is cancelled here too: poll
///   `isCancelled` or `checkCancellation()` between steps, and wrap a blocking wait in
///   `withCancellationHandler(_:onCancel:)` so the handler can stop it (close the
///   socket, cancel the request).
///
/// ```swift
/// func save(_ record: StoredRecord, call: StoreCall) throws {
///     try call.checkCancellation()                 // nothing written yet: stop here
///     try call.withCancellationHandler {
///         try connection.put(record, timeout: call.deadline.remaining)
///     } onCancel: {
///         connection.interrupt()                   // from another thread, at any time
///     }
/// }
/// ```
///
/// A synchronous call is never cancelled; only its deadline bounds it.
public struct StoreCall: Sendable {
    /// When the call must be done.
    public package(set) var deadline: Deadline
    /// The cancellation of the async call this belongs to; `nil` for a call nobody can cancel.
    package let cancellation: OperationCancellation?

    /// A call of its own, for code that calls a store directly: bounded by `timeout`
    /// from now and never cancelled.
    /// - Parameter timeout: the call's whole budget.
    public init(timeout: Duration) {
        self.init(deadline: Deadline(timeout))
    }

    /// A call bounded by `deadline` and never cancelled.
    public init(deadline: Deadline) {
        self.deadline = deadline
        cancellation = nil
    }

    /// A call bounded by `deadline` that `cancellation` cancels.
    package init(deadline: Deadline, cancellation: OperationCancellation?) {
        self.deadline = deadline
        self.cancellation = cancellation
    }

    /// The call a public keyring call starts now: `timeout` from now, cancelled with the async
    /// call whose work runs on this thread (the executor binds it there), if any.
    package static func starting(timeout: Duration) -> StoreCall {
        StoreCall(deadline: Deadline(timeout), cancellation: OperationCancellation.current)
    }

    /// This call with its deadline capped at `limit` from now (see ``Deadline/capped(at:)``): for one
    /// part of the call, such as one etcd member's turn, that may get less than what is left.
    package func capped(at limit: Duration) -> StoreCall {
        var part = self
        part.deadline = deadline.capped(at: limit)
        return part
    }

    /// Whether the async call was cancelled; its caller has already been told `CancellationError`.
    public var isCancelled: Bool {
        cancellation?.isCancelled ?? false
    }

    /// Throws `CancellationError` when the call was cancelled.
    /// - Throws: `CancellationError`.
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `operation`, and `onCancel` (once, on whichever thread cancels) if the call is
    /// cancelled while it runs, or at once when it already was.
    ///
    /// `onCancel` should only make the wait in `operation` end early (cancel a request,
    /// wake a poll); `operation` then throws as it sees fit, usually `CancellationError`.
    /// - Parameters:
    ///   - operation: the blocking work.
    ///   - onCancel: what stops it; it may run concurrently with `operation`.
    /// - Returns: what `operation` returned.
    public func withCancellationHandler<Result>(
        _ operation: () throws -> Result, onCancel: @escaping @Sendable () -> Void
    ) rethrows -> Result {
        guard let cancellation else { return try operation() }
        let registration = cancellation.register(onCancel)
        defer { cancellation.unregister(registration) }
        return try operation()
    }

    /// Runs `body` with this call's cancellation bound to the calling thread, for code beneath a
    /// store that finds the cancellation there (`OperationCancellation.current`) rather than in a parameter.
    package func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let cancellation else { return try OperationCancellation.withoutCancellation(body) }
        return try cancellation.bind(body)
    }
}
