import Synchronization

/// Collects errors thrown on worker threads, for the test thread to assert on.
final class ConcurrentFailures: Sendable {
    private let messages = Mutex<[String]>([])

    func record(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    var all: [String] { messages.withLock { $0 } }
}
