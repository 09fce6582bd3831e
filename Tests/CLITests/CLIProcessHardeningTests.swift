import Foundation
import Testing

/// The tool holds passphrases and passwords for its short life: no core file
/// may keep them, and no other process of the same user may read its memory.
@Suite("CLI: process hardening")
struct CLIProcessHardeningTests {
    @Test("The tool runs with a core-file limit of zero, though it was started with core dumps allowed")
    func noCoreFile() throws {
        let run = try WaitingTool(asOtherUser: false)
        defer { run.finish() }
        let seen = run.poll { pid in
            guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else { return false }
            let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
            return core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0"
        }
        #expect(seen, "the waiting tool's soft core-file limit never became 0")
    }

    @Test(
        "The tool is not dumpable: its /proc files belong to root, not to the user it runs as",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || geteuid() != 0,
            "as root, the tool runs as another user through setpriv")
    )
    func notDumpable() throws {
        let run = try WaitingTool(asOtherUser: geteuid() == 0)
        defer { run.finish() }
        let seen = run.poll { pid in
            var info = stat()
            return stat("/proc/\(pid)/environ", &info) == 0 && info.st_uid == 0
        }
        #expect(seen, "the tool's /proc/PID/environ stayed owned by the user it runs as, so it is dumpable")
    }
}

/// The tool started with core dumps allowed and waiting on standard input for
/// a password (`set` on the memory store), so its state can be looked at from outside.
private final class WaitingTool {
    let process = Process()
    private let input = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    /// The folder of the tool's copy for user 65534, removed by `finish()`.
    private var copyFolder: URL?

    /// - Parameter asOtherUser: run it as user 65534, so a test running as root can see
    ///   what `PR_SET_DUMPABLE` changes (root's own processes are owned by root anyway).
    init(asOtherUser: Bool) throws {
        let start = #"ulimit -S -c "$(ulimit -H -c)" && exec "$0" "$@""#
        let binary = asOtherUser ? try Self.copyForEveryone() : CLI.binary.path
        if asOtherUser { copyFolder = URL(fileURLWithPath: binary).deletingLastPathComponent() }
        var arguments = ["-c", start, binary, "set", "waiting", "--username", "u", "--url", "https://example.com"]
        if asOtherUser {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
        }
        process.arguments = arguments
        process.environment = ["SWIFT_KEYRING_BACKEND": "memory", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// A copy of the tool that user 65534 can run, wherever the build folder is
    /// (a checkout under `/root` is closed to other users).
    private static func copyForEveryone() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keyring-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let copy = folder.appendingPathComponent("swift-keyring")
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        #expect(chmod(copy.path, 0o755) == 0)
        return copy.path
    }

    /// Whether `condition` held for the running tool (named `swift-keyring`, not the
    /// shell or setpriv before it) within 30 s; a tool that never hardens itself fails, never hangs.
    func poll(_ condition: (Int32) -> Bool) -> Bool {
        let pid = process.processIdentifier
        let end = Date(timeIntervalSinceNow: 30)
        while Date() < end, process.isRunning {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "swift-keyring", condition(pid) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Ends the run: the password arrives, and the tool stores it and exits.
    func finish() {
        try? input.fileHandleForWriting.write(contentsOf: Data("pw".utf8))
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + 30) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
    }
}
