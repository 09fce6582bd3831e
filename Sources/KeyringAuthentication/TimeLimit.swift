import SwiftKeyring
import Synchronization

/// Runs work that must not wait forever, even when it ignores cancellation.
///
/// A task group would wait for a child that does not stop when cancelled; here
/// the caller resumes at the deadline and the late work is only cancelled.
enum TimeLimit {
    /// The result of `operation`, or `timeout` thrown once `deadline` has passed.
    /// - Throws: what `operation` throws, `timeout`, or `CancellationError` when the caller is cancelled.
    static func run<Value: Sendable>(
        until deadline: Deadline,
        orThrow timeout: any Error,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    tasks: [
                        Task {
                            do {
                                race.finish(.success(try await operation()))
                            } catch {
                                race.finish(.failure(error))
                            }
                        },
                        Task {
                            guard (try? await Task.sleep(until: deadline.end, clock: .continuous)) != nil else { return }
                            race.finish(.failure(timeout))
                        },
                    ])
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// The first result wins; it resumes the caller once and cancels both tasks.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var tasks: [Task<Void, Never>] = []
            /// A result that came before the continuation was installed (cancellation can).
            var early: Result<Value, any Error>?
            var done = false
        }

        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<Value, any Error>, tasks: [Task<Void, Never>]) {
            let early: Result<Value, any Error>? = state.withLock { state in
                state.tasks = tasks
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early {
                tasks.forEach { $0.cancel() }
                continuation.resume(with: early)
            }
        }

        func finish(_ result: Result<Value, any Error>) {
            let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
                guard !state.done else { return (nil, []) }
                state.done = true
                guard let continuation = state.continuation else {
                    state.early = result
                    return (nil, [])
                }
                state.continuation = nil
                return (continuation, state.tasks)
            }
            tasks.forEach { $0.cancel() }
            continuation?.resume(with: result)
        }
    }
}
