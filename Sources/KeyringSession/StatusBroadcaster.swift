import Foundation
import Synchronization

/// Hands each status change to every observer's stream, in the order given.
///
/// ``Session`` calls `yield` while it holds its own lock, so changes from many
/// threads reach every observer in one order.
final class StatusBroadcaster: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<LoginStatus>.Continuation]>([:])

    func stream() -> AsyncStream<LoginStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoginStatus.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { _ = $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func yield(_ status: LoginStatus) {
        continuations.withLock { all in
            for continuation in all.values { continuation.yield(status) }
        }
    }

    func finishAll() {
        let all = continuations.withLock { all in
            defer { all.removeAll() }
            return Array(all.values)
        }
        for continuation in all { continuation.finish() }
    }
}
