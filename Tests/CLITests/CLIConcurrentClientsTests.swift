import Foundation
import KeyringTestSupport
import Testing

/// Many `swift-keyring` processes at once never crash the Secret Service daemon and never
/// show a raw error.
///
/// Eight loops, for about 12 seconds, each starting one `swift-keyring` process per command
/// (as scripts and git credential helpers do), mixing `set`, `get`, `remove` and `list` on
/// three keys they all share. Every process must end within a bound; its exit status must be
/// 0, 1 for a `get` or `remove` of a missing record, or 69 for a D-Bus bound reached under
/// load (the library's stress counts its timeouts so too; each command must still succeed at
/// least once), and nothing else (69 for an unavailable keyring or a backend error); its standard error must never hold
/// "backend error" or raw D-Bus text ("org.freedesktop"); a `get` must print a password some
/// loop wrote. Afterwards the daemon that owns `org.freedesktop.secrets` must be the one that
/// owned it before (a crashed gnome-keyring is started again by the bus), and each key must be
/// held by at most one item, holding a password some loop wrote.
///
/// Runs on the private daemon of `Scripts/with-secret-service.sh`, `with-keepassxc.sh` or `with-kwallet.sh`,
/// and fails, never skips, without one.
@Suite("CLI: concurrent clients on the Secret Service")
struct CLIConcurrentClientsTests {
    /// How long one process may run before it is killed and counted as a hang: the tool's
    /// D-Bus bound (5 s), its prompt bound, and room for starting on a loaded machine.
    static let processBound: Duration = .seconds(20)
    /// The commands the loops run; each must succeed at least once in the run.
    static let commands = ["set", "get", "remove", "list"]

    @Test("8 loops of new swift-keyring processes for 12 s: the same daemon after, only meant statuses, one item per key")
    func eightLoops() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh, with-keepassxc.sh or with-kwallet.sh (Scripts/test.sh does all three)"
        )
        let libraryEnvironment = try PrivateSecretService.environment()
        let sandbox = try Sandbox()
        // With the session's runtime folder, where the tool keeps its cross-process write lock.
        let environment = sandbox.secretServiceEnvironment()
        try #require(environment["XDG_RUNTIME_DIR"] != nil, "the private session has no runtime folder")
        let service = "cli-concurrent.\(UUID().uuidString.lowercased())"
        defer {
            _ = try? CLI.run(
                ["remove-all", "--yes", "--service", service, "--prompt-timeout", "3"], environment: environment,
                timeout: 60)
        }
        // The tool's processes, checked afterwards through the library on the same bus.
        try ConcurrentClients.stress("CLI", service: service, environment: libraryEnvironment, actions: Self.commands) {
            loop, call, tally in
            Self.runOnce(loop: loop, call: call, service: service, environment: environment, tally: tally)
        }
    }

    /// One process of one loop, counted in `tally` by command and exit status.
    private static func runOnce(
        loop: Int, call: Int, service: String, environment: [String: String], tally: ConcurrentClients.Tally
    ) {
        let key = ConcurrentClients.keys[Int.random(in: 0..<ConcurrentClients.keys.count)]
        let command = commands[Int.random(in: 0..<commands.count)]
        var arguments = [command]
        var stdin: String?
        switch command {
        case "set":
            let password = "pw-\(loop)-\(call)"
            tally.wrote(password)
            stdin = password
            arguments += [key, "--username", "u", "--url", "https://example.com"]
        case "get", "remove":
            arguments.append(key)
        default:
            break
        }
        arguments += ["--service", service, "--backend", "secret-service", "--prompt-timeout", "3"]

        let clock = ContinuousClock()
        let start = clock.now
        let result: ChildProcess.Output
        do {
            // ChildProcess rather than CLI.run: a process past its bound is counted as a hang here.
            result = try ChildProcess.run(
                [CLI.binary.path] + arguments, environment: environment, input: Data((stdin ?? "").utf8),
                timeout: processBound)
        } catch let failure as ChildProcess.Failure {
            let duration = clock.now - start
            tally.fail("\(command) hang", "\(command) \(key): \(failure.description), killed", took: duration)
            return
        } catch {
            tally.fail("\(command) did not start", "\(command): \(error)")
            return
        }
        let duration = clock.now - start
        let kind = "\(command) exit \(result.status)"
        if let problem = problem(command, result, written: tally.written) {
            tally.fail(kind, "\(command) \(key) (exit \(result.status), \(duration)): \(problem)", took: duration)
        } else if isTimeout(result) {
            // A set or remove cut short may leave its clean-up undone: checked after the run.
            if command == "set" || command == "remove" { tally.cutShort(key) }
            tally.count(kind + " timedOut", took: duration, succeeded: false)
        } else {
            tally.count(kind, took: duration)
        }
    }

    /// Whether the tool ended because a D-Bus call or the write lock reached its bound: exit 69
    /// with the tool's timeout message ("did not answer … within N s").
    private static func isTimeout(_ result: ChildProcess.Output) -> Bool {
        result.status == 69 && result.standardError.hasPrefix("swift-keyring: ")
            && result.standardError.contains(" did not answer ") && result.standardError.contains(" within ")
    }

    /// What is wrong with one run of the tool, or `nil` when it ended as it may.
    private static func problem(_ command: String, _ result: ChildProcess.Output, written: Set<String>) -> String? {
        let lowercased = result.standardError.lowercased()
        if lowercased.contains("backend error") || lowercased.contains("org.freedesktop") {
            return "raw error text: \(result.standardError.prefix(300))"
        }
        switch (command, result.status) {
        case (_, 0) where command == "get":
            let printed = String(decoding: result.standardOutput.dropLast(), as: UTF8.self)
            return written.contains(printed) ? nil : "printed a password no loop wrote"
        case (_, 0):
            return nil
        case (_, 69) where isTimeout(result):
            return nil
        case ("get", 1), ("remove", 1):
            return result.standardError.hasPrefix("swift-keyring: No record is stored")
                ? nil : "exit 1 but not a missing record: \(result.standardError)"
        default:
            return "unexpected exit status; stderr: \(result.standardError.prefix(300))"
        }
    }
}
