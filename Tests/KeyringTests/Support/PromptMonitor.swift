import Foundation
import KeyringTestSupport

/// `dbus-monitor` on a test's bus, watching the Secret Service's prompts: each client's
/// `Prompt` call (which names the prompt's path, the client and the daemon) and every
/// `Completed` signal, with its sender, so a test can tell a forged completion from the
/// daemon's own.
final class PromptMonitor: @unchecked Sendable {
    /// A client's call of `Prompt`: the prompt's path, the client's unique name, the daemon's.
    struct PromptCall: Sendable {
        var path: String
        var client: String
        var daemon: String
    }

    private let process: Process
    private let log: URL

    /// Starts the monitor and waits until it sees a marker signal, so nothing sent after is missed.
    init(environment: [String: String]) throws {
        log = try TemporaryFolder.make().appendingPathComponent("monitor.log")
        process = try ChildProcess.start(
            [
                "dbus-monitor", "--session",
                "type='method_call',interface='org.freedesktop.Secret.Prompt',member='Prompt'",
                "type='signal',interface='org.freedesktop.Secret.Prompt',member='Completed'",
            ], environment: environment, log: log)
        let marker = "/swift_keyring/monitor_ready"
        let ready = ChildProcess.poll(timeout: .seconds(20)) {
            _ = try? ChildProcess.run(
                [
                    "dbus-send", "--session", "--type=signal", marker, "org.freedesktop.Secret.Prompt.Completed",
                    "boolean:false", "variant:string:",
                ], environment: environment)
            return self.lines.contains { $0.contains("path=\(marker);") }
        }
        guard ready else {
            ChildProcess.terminate(process)
            throw ChildProcess.Failure(description: "dbus-monitor did not start: \(lines.prefix(5))")
        }
    }

    /// The header lines the monitor printed so far (one per message).
    private var lines: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("method call ") || $0.hasPrefix("signal ") }
    }

    /// A header field (`sender=…`, `destination=…`, `path=…;`) of a monitor line.
    private static func field(_ name: String, of line: String) -> String? {
        guard let range = line.range(of: " \(name)=") else { return nil }
        return line[range.upperBound...].split(separator: " ").first.map { String($0.trimmingCharacters(in: [";"])) }
    }

    /// The first `Prompt` call seen, waiting up to `timeout` for one.
    func promptCall(within timeout: Duration) -> PromptCall? {
        var found: PromptCall?
        _ = ChildProcess.poll(timeout: timeout) {
            found =
                lines.lazy.filter { $0.hasPrefix("method call ") && $0.contains("member=Prompt") }.compactMap { line in
                    guard let path = Self.field("path", of: line), let client = Self.field("sender", of: line),
                        let daemon = Self.field("destination", of: line)
                    else { return nil }
                    return PromptCall(path: path, client: client, daemon: daemon)
                }.first
            return found != nil
        }
        return found
    }

    /// The senders of every `Completed` signal on `path`, in the order the bus carried them.
    func completions(on path: String) -> [String] {
        lines.filter { $0.hasPrefix("signal ") && Self.field("path", of: $0) == path }.compactMap { Self.field("sender", of: $0) }
    }

    func stop() {
        ChildProcess.terminate(process)
    }
}
