import Synchronization

/// Collects values from worker threads and tasks, for the test to assert on.
final class Collected<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] { elements.withLock { $0 } }
}
