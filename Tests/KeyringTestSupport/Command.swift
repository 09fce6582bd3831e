import Foundation
import Testing

/// What one run of a program printed and returned.
package struct CommandResult: Sendable {
    package var stdout: Data
    package var stderr: String
    package var status: Int32
    /// The program outlived its bound and was killed.
    package var timedOut: Bool

    package var text: String { String(decoding: stdout, as: UTF8.self) }

    package init(stdout: Data, stderr: String, status: Int32, timedOut: Bool = false) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
        self.timedOut = timedOut
    }
}

/// Runs the programs tests need, as a user would: the built `swift-keyring`, `secret-tool`,
/// `etcdctl`, the project's scripts; arguments, environment and standard input through
/// pipes, output captured, with a bound on how long each may take.
package enum Command {
    /// The `swift-keyring` binary `swift build --build-tests` put beside the test bundle.
    package static let tool: String = {
        if let explicit = ProcessInfo.processInfo.environment["SWIFT_KEYRING_CLI"] { return explicit }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("swift-keyring")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            folder.deleteLastPathComponent()
        }
        return ".build/debug/swift-keyring"
    }()

    /// The project's Scripts folder, found from this file's place in the checkout.
    package static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts")

    /// Runs `executable` (a path, or a name looked up on PATH) and waits at most `timeout` seconds;
    /// standard input is a pipe (never a terminal) carrying `stdinBytes`, or `stdin`, or nothing.
    /// A program that outlives `timeout` is killed and fails the test, unless `timeoutFails`
    /// is false: then the caller judges `CommandResult.timedOut`.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdin: String? = nil, stdinBytes: Data? = nil, timeout: TimeInterval = 60, timeoutFails: Bool = true
    ) throws -> CommandResult {
        ignoreBrokenPipes
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let collected = Collected()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { collected.setOut(output.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: readers) { collected.setErr(errors.fileHandleForReading.readDataToEndOfFile()) }
        if let bytes = stdinBytes ?? stdin.map({ Data($0.utf8) }) {
            // A program that exits before reading (a usage error) closes the pipe: that is not a test failure.
            try? input.fileHandleForWriting.write(contentsOf: bytes)
        }
        try? input.fileHandleForWriting.close()
        let timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            if timeoutFails {
                Issue.record(
                    "\((executable as NSString).lastPathComponent) \(arguments.first ?? "") did not finish within \(Int(timeout)) s"
                )
            }
        }
        readers.wait()
        // Pipe closes its ends only when it is freed, which may be long after: a test that
        // runs thousands of commands (the concurrent-clients suite) ran out of descriptors.
        try? output.fileHandleForReading.close()
        try? errors.fileHandleForReading.close()
        return CommandResult(
            stdout: collected.out, stderr: String(decoding: collected.err, as: UTF8.self), status: process.terminationStatus,
            timedOut: timedOut)
    }
}

/// Writing to a program that already exited must be an error to ignore, not a signal that ends the test run.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Output written by the reader threads and read after `DispatchGroup.wait`, which orders the two.
private final class Collected: @unchecked Sendable {
    private(set) var out = Data()
    private(set) var err = Data()
    func setOut(_ data: Data) { out = data }
    func setErr(_ data: Data) { err = data }
}
