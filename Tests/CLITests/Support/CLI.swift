import Foundation
import Testing

/// What one run of the tool printed and returned.
struct CLIResult: Sendable {
    var stdout: String
    var stderr: String
    var status: Int32

    /// Everything the tool printed, for "no secret anywhere" checks.
    var allOutput: String { stdout + stderr }
}

/// Runs the built `swift-keyring` binary as a user would: arguments, environment and
/// standard input through pipes, output captured, with a bound on how long it may take.
enum CLI {
    /// The binary `swift build --build-tests` put beside the test bundle.
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SWIFT_KEYRING_CLI"] {
            return URL(fileURLWithPath: explicit)
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("swift-keyring")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/swift-keyring")
    }()

    /// Runs the tool; standard input is a pipe (never a terminal) carrying `stdin`, or `stdinBytes`, or nothing.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        stdinBytes: Data? = nil,
        environment: [String: String],
        timeout: TimeInterval = 60
    ) throws -> CLIResult {
        ignoreBrokenPipes
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let stdoutData = Collected(), stderrData = Collected()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { stdoutData.set(output.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: readers) { stderrData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        if let bytes = stdinBytes ?? stdin.map({ Data($0.utf8) }) {
            // A tool that exits before reading (a usage error) closes the pipe: that is not a test failure.
            try? input.fileHandleForWriting.write(contentsOf: bytes)
        }
        try? input.fileHandleForWriting.close()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            Issue.record("swift-keyring \(arguments.first ?? "") did not finish within \(Int(timeout)) s")
        }
        readers.wait()
        return CLIResult(
            stdout: String(decoding: stdoutData.value, as: UTF8.self),
            stderr: String(decoding: stderrData.value, as: UTF8.self),
            status: process.terminationStatus
        )
    }
}

/// Writing to a tool that already exited must be an error to ignore, not a signal that ends the test run.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// A value written by one reader thread and read after it finished.
private final class Collected: @unchecked Sendable {
    // Written once by the reader, read after `DispatchGroup.wait`, which orders the two.
    private(set) var value = Data()
    func set(_ data: Data) { value = data }
}
