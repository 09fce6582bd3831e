import Foundation
import SwiftKeyring
import Synchronization

/// Runs a call that must not hang on a thread of its own, and waits for it a bounded time.
enum BoundedCall {
    /// The call's outcome, or `nil` when it had not returned after `limit` (a hang).
    static func run<Value: Sendable>(
        within limit: Duration = .seconds(30),
        _ body: @escaping @Sendable () throws -> Value
    ) -> Result<Value, any Error>? {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + limit.inSeconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }

    /// The `KeyringError` the call threw; `nil` when it hung, succeeded or threw something else.
    static func keyringError<Value: Sendable>(
        within limit: Duration = .seconds(30),
        _ body: @escaping @Sendable () throws -> Value
    ) -> KeyringError? {
        guard case .failure(let error) = run(within: limit, body) else { return nil }
        return error as? KeyringError
    }
}
