import Foundation

/// Runs helper programs (secret-tool, dbus-send, the daemons) from tests, never
/// waiting without a bound and never leaving a child behind.
package enum ChildProcess {
    package struct Output: Sendable {
        package var status: Int32
        package var standardOutput: Data
        package var standardError: String
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Runs `arguments[0]` (found on `PATH`) to completion, feeding it `input`.
    /// - Throws: `Failure` when it cannot start or does not finish within `timeout` (it is killed then).
    package static func run(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        input: Data = Data(),
        timeout: Duration = .seconds(20)
    ) throws -> Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keyring-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        let process = try launch(arguments, environment: environment, input: input, output: outURL, errors: errURL)
        guard waitForExit(process, timeout: timeout) else {
            terminate(process)
            throw Failure(description: "\(arguments[0]) did not finish within \(timeout)")
        }
        return Output(
            status: process.terminationStatus,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }

    /// Starts a long-running child with its output sent to `log`; the caller must `terminate` it.
    package static func start(_ arguments: [String], environment: [String: String], input: Data = Data(), log: URL) throws
        -> Process
    {
        try launch(arguments, environment: environment, input: input, output: log, errors: log)
    }

    /// Starts `arguments[0]` from `PATH` with its output in files, writes `input` and closes its standard input.
    private static func launch(
        _ arguments: [String],
        environment: [String: String],
        input: Data,
        output: URL,
        errors: URL
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let out = try FileHandle(forWritingTo: output)
        let err = output == errors ? out : try FileHandle(forWritingTo: errors)
        defer {
            try? out.close()
            if err !== out { try? err.close() }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        // A child that exits before reading its input closes the pipe: no failure of the test's.
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        return process
    }

    /// Waits up to `timeout` for `process` to exit; `false` when it is still running.
    package static func waitForExit(_ process: Process, timeout: Duration) -> Bool {
        let end = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= end { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Stops `process`: SIGCONT (in case a test stopped it), SIGTERM, then SIGKILL after a grace period.
    package static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
        process.terminate()
        if !waitForExit(process, timeout: .seconds(3)) {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(process, timeout: .seconds(3))
        }
    }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    package static func poll(timeout: Duration, _ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= end { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }
}
