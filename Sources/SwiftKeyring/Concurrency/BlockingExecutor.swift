import Dispatch
import Synchronization

/// Where the async face runs the synchronous stores' blocking work: a serial
/// queue of the library's own, never one of Swift concurrency's cooperative threads.
///
/// A D-Bus call may wait 5 s, an unlock prompt as long as the person takes, a
/// file lock 10 s. On a cooperative thread (two on a 2-core machine) two such
/// waits would stall every task in the process; here they block only a thread
/// libdispatch made for this queue, and the awaiting task is suspended.
///
/// The queue is serial, so work submitted through one executor runs one piece
/// at a time, in the order it was submitted: a `set` awaited by one task and a
/// read started after it by another run in that order, as two calls on one
/// thread do. Each ``Keyring`` (with its copies) has its own executor, so a
/// call hung on one store never holds up another store.
///
/// Cancelling the awaiting task cancels the `OperationCancellation` bound
/// around the work, which reaches the wait beneath (see there), and makes the
/// awaiting call throw `CancellationError` at once, without waiting for the
/// work to unwind. Work cancelled before it started is skipped. Work already
/// under way either stops at its next cancellation point or, past the point
/// where stopping could lose data, finishes; its result is then dropped.
package final class BlockingExecutor: Sendable {
    private let queue: DispatchQueue
    /// How many pieces of work are queued or running.
    private let pending = Atomic<Int>(0)

    /// An executor with a serial queue of its own.
    /// - Parameter label: the queue's name, seen in debuggers and thread listings.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Whether nothing is queued or running, so a call answered on the caller's
    /// thread overtakes no call made before it.
    package var isIdle: Bool {
        pending.load(ordering: .acquiring) == 0
    }

    /// How many pieces of work are queued or running now, for tests of the order calls run in.
    package var queuedOrRunning: Int {
        pending.load(ordering: .acquiring)
    }

    /// Runs `body` on the executor's queue with a cancellation bound to it, and returns what it returned.
    /// - Throws: what `body` throws, or `CancellationError` when the task is cancelled first.
    package func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        let cancellation = OperationCancellation()
        let handoff = Handoff<Result>()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard handoff.arm(continuation) else { return }
                pending.add(1, ordering: .relaxed)
                queue.async {
                    defer { self.pending.subtract(1, ordering: .releasing) }
                    let outcome: Swift.Result<Result, any Error>
                    if cancellation.isCancelled {
                        outcome = .failure(CancellationError())
                    } else {
                        outcome = Swift.Result { try cancellation.bind(body) }
                    }
                    handoff.finish(outcome)
                }
            }
        } onCancel: {
            cancellation.cancel()
            handoff.finish(.failure(CancellationError()))
        }
    }
}

/// Resumes the awaiting task exactly once, with whichever comes first: the
/// work's outcome or the task's cancellation, which may come even before the
/// continuation exists.
private final class Handoff<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case armed(UnsafeContinuation<Value, any Error>)
        case finished(Result<Value, any Error>)
        case resumed
    }

    private let state = Mutex(State.waiting)

    /// Keeps `continuation` to resume later; when the outcome is already known
    /// (the task was cancelled before), resumes it now and returns `false`: the work must not start.
    func arm(_ continuation: UnsafeContinuation<Value, any Error>) -> Bool {
        let early = state.withLock { state -> Result<Value, any Error>? in
            guard case .finished(let outcome) = state else {
                state = .armed(continuation)
                return nil
            }
            state = .resumed
            return outcome
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Resumes the awaiting task with `outcome`, unless it was resumed already.
    func finish(_ outcome: Result<Value, any Error>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Value, any Error>? in
            switch state {
            case .waiting:
                state = .finished(outcome)
                return nil
            case .armed(let continuation):
                state = .resumed
                return continuation
            case .finished, .resumed:
                return nil
            }
        }
        continuation?.resume(with: outcome)
    }
}
