/// A running `Session.observeStatus` callback. Keep it as long as you want
/// the callback: it stops when you call `cancel()` or let go of it.
public final class StatusObservation: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Stops the callback; changes after this are not delivered.
    public func cancel() {
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}
