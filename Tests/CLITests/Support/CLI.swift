import Foundation
import KeyringTestSupport

/// What one run of the tool printed and returned.
struct CLIResult: Sendable {
    var stdout: String
    var stderr: String
    var status: Int32

    /// Everything the tool printed, for "no secret anywhere" checks.
    var allOutput: String { stdout + stderr }
}

/// Runs the built `swift-keyring` binary as a user would (see `Command.run`).
enum CLI {
    /// The binary `swift build --build-tests` put beside the test bundle.
    static var binary: URL { URL(fileURLWithPath: Command.tool) }

    /// Runs the tool; standard input is a pipe (never a terminal) carrying `stdin`, or `stdinBytes`, or nothing.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        stdinBytes: Data? = nil,
        environment: [String: String],
        timeout: TimeInterval = 60
    ) throws -> CLIResult {
        let result = try Command.run(
            Command.tool, arguments, environment: environment, stdin: stdin, stdinBytes: stdinBytes, timeout: timeout)
        return CLIResult(stdout: result.text, stderr: result.stderr, status: result.status)
    }
}
