import Foundation
import KeyringTestSupport

/// The seccomp launcher of `Tests/KeyCallFilter`: starts a program with the kernel's key calls
/// refused, as Docker's default profile refuses them, or with only `KEYCTL_MOVE` missing, as on
/// a kernel before Linux 5.1.
///
/// Built on first use by `Scripts/build-c-test-program.sh` with cc (from `Scripts/setup.sh`);
/// when it cannot be built, the test fails, never skips.
enum KeyCallFilter {
    /// What the filter refuses (the launcher's first argument).
    enum Mode: String {
        /// `add_key`, `keyctl` and `request_key` fail with `EPERM`.
        case refuse
        /// Only `keyctl(KEYCTL_MOVE, …)` fails, with `EOPNOTSUPP`.
        case noMove = "no-move"
    }

    /// Whether the suites can run here: a cc to build the launcher, or CI, where a missing
    /// cc must fail them rather than skip.
    static var canRun: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/cc") }
    }

    /// The launcher's path, built once for the whole run (again when its source is newer).
    static func binary() throws -> String { try built.get() }

    private static let built: Result<String, ChildProcess.Failure> = {
        let root = Command.scripts.deletingLastPathComponent()
        let output: CommandResult
        do {
            output = try Command.run(
                "bash",
                [
                    Command.scripts.appendingPathComponent("build-c-test-program.sh").path,
                    root.appendingPathComponent("Tests/KeyCallFilter/key-call-filter.c").path, "-",
                    root.appendingPathComponent(".build/key-call-filter").path,
                ], timeout: 120)
        } catch {
            return .failure(ChildProcess.Failure(description: "Scripts/build-c-test-program.sh did not start: \(error)"))
        }
        let path = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            return .failure(
                ChildProcess.Failure(
                    description: "the seccomp launcher could not be built (needs cc and the kernel's headers): "
                        + output.stderr))
        }
        return .success(path)
    }()

    /// Runs `program` under the filter `mode`; as `Command.run` otherwise.
    static func run(
        _ mode: Mode, _ program: String, _ arguments: [String], environment: [String: String], stdin: String? = nil
    ) throws -> CommandResult {
        try Command.run(try binary(), [mode.rawValue, program] + arguments, environment: environment, stdin: stdin)
    }

    /// Runs the built `swift-keyring` under the filter `mode`.
    static func runTool(
        _ mode: Mode, _ arguments: [String], environment: [String: String], stdin: String? = nil
    ) throws -> CLIResult {
        let result = try run(mode, CLI.binary.path, arguments, environment: environment, stdin: stdin)
        return CLIResult(stdout: result.text, stderr: result.stderr, status: result.status)
    }
}
