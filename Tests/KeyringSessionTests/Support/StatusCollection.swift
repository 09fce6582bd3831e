import KeyringSession
import Testing

/// Reading a session's status stream to its end in a test, which must never hang.
enum StatusCollection {
    /// Everything `stream` yields until it ends, giving up after 10 seconds.
    static func collect(_ stream: AsyncStream<LoginStatus>) async -> [LoginStatus] {
        await withTaskGroup(of: [LoginStatus]?.self) { group in
            group.addTask {
                var all: [LoginStatus] = []
                for await status in stream { all.append(status) }
                return all
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil { Issue.record("the stream did not end within 10 seconds") }
            return first ?? []
        }
    }
}
