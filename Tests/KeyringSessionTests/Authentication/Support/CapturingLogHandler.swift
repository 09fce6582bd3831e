import Logging

/// Keeps every log line (message and metadata, as one string) for the test to read;
/// installed on one `Logger`, so the global logging system is left alone.
struct CapturingLogHandler: LogHandler {
    let lines: Collected<String>
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lines.append("\(event.level) \(event.message) \(rendered)")
    }

    /// A logger at trace level whose lines end up in `lines`.
    static func logger(into lines: Collected<String>) -> Logger {
        Logger(label: "swift-keyring.auth.test") { _ in CapturingLogHandler(lines: lines) }
    }
}
