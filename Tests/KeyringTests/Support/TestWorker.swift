import Foundation
import Testing

/// Runs the `KeyringTestWorker` executable, which SwiftPM builds beside the test bundle.
struct TestWorker {
    let process: Process
    private let output: Pipe
    private let errors: Pipe

    /// The built worker, next to the running test binary.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("KeyringTestWorker")
    }

    /// Starts a worker saving `count` records (0: until killed) named `prefix-N` to `file`.
    /// - Parameters:
    ///   - launcher: a command line that runs the worker (such as `prlimit …`), or none.
    ///   - mode: the worker's first argument when it is not to write the encrypted file (`libsecret-file`).
    init(file: URL, keyFile: URL, prefix: String, count: Int, launcher: [String] = [], mode: String? = nil) throws {
        let executable = Self.executable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable.path])
        }
        process = Process()
        let arguments =
            launcher + [executable.path] + (mode.map { [$0] } ?? []) + [file.path, keyFile.path, prefix, String(count)]
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Waits up to `timeout` for the worker to print something; `false` when it did not.
    func waitForOutput(timeout: Duration) -> Bool {
        var request = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000)
        return poll(&request, 1, milliseconds) == 1
    }

    /// Waits up to `timeout` for the worker to exit, killing it when it does not.
    /// - Returns: whether it exited by itself.
    @discardableResult
    func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            usleep(10_000)
        }
        guard process.isRunning else { return true }
        kill()
        return false
    }

    /// Sends SIGKILL and waits for the worker to be gone.
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the worker wrote on standard error. Call once it has exited.
    func errorOutput() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Every key the worker acknowledged: complete lines only, since a line cut by a kill was not.
    /// Call once the worker has exited.
    func acknowledgedKeys() -> [String] {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()  // empty after a final newline, or a cut line
        return lines
    }
}
