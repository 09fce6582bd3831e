import InMemoryLogging
import Logging

/// A logger at trace level whose lines swift-log's `InMemoryLogHandler` keeps for the
/// test to read; passed to the library, so the global logging system is left alone.
struct CapturedLog: Sendable {
    private let handler = InMemoryLogHandler()

    /// The logger to pass in.
    var logger: Logger {
        var logger = Logger(label: "swift-keyring.test") { _ in handler }
        logger.logLevel = .trace
        return logger
    }

    /// Every line so far as one string each: level, message, then the metadata sorted by key.
    var lines: [String] {
        handler.entries.map { entry in
            let metadata = entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(entry.level) \(entry.message) \(metadata)"
        }
    }

    /// All lines, one a line.
    var text: String { lines.joined(separator: "\n") }
}
