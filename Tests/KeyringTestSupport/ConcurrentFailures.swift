import Synchronization

/// Collects errors thrown on worker threads, for the test thread to assert on.
package final class ConcurrentFailures: Sendable {
    private let messages = Mutex<[String]>([])

    package init() {}

    package func record(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    package var all: [String] { messages.withLock { $0 } }
}
