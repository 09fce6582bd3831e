import Foundation
import KeyringTestSupport
import Testing

/// The tool holds passphrases and passwords for its short life: no core file
/// may keep them, and no other process of the same user may read its memory.
@Suite("CLI: process hardening")
struct CLIProcessHardeningTests {
    /// As root, the tool runs as another user through setpriv (root's own processes are root's anyway).
    static let setpriv = MachineNeed(
        isMet: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
        remedy: "install setpriv (util-linux): as root, the tool runs as another user through it")

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
        setpriv.trait()
    )
    func notDumpable() throws {
        try Self.setpriv.require()
        let run = try WaitingTool(asOtherUser: geteuid() == 0)
        defer { run.finish() }
        let seen = run.poll { pid in
            var info = stat()
            return stat("/proc/\(pid)/environ", &info) == 0 && info.st_uid == 0
        }
        #expect(seen, "the tool's /proc/PID/environ stayed owned by the user it runs as, so it is dumpable")
    }
}

/// One of the built programs started with core dumps allowed and waiting on standard input
/// (by default the tool, for a password: `set` on the memory store), so its state can be
/// looked at from outside. The docker helper's suite starts its helper the same way.
final class WaitingTool {
    let process = Process()
    private let input = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    /// The program's name as /proc/PID/comm shows it (the kernel keeps its first 15 bytes).
    private let name: String

    /// - Parameters:
    ///   - asOtherUser: run it as user 65534, so a test running as root can see
    ///     what `PR_SET_DUMPABLE` changes (root's own processes are owned by root anyway).
    ///   - program: the built program; `arguments`: what makes it wait on standard input.
    init(
        asOtherUser: Bool, program: String = CLI.binary.path,
        arguments programArguments: [String] = ["set", "waiting", "--username", "u", "--url", "https://example.com"]
    ) throws {
        name = String(URL(fileURLWithPath: program).lastPathComponent.utf8.prefix(15))!
        let start = #"ulimit -S -c "$(ulimit -H -c)" && exec "$0" "$@""#
        // User 65534 runs a copy: the build folder may be closed to it (a checkout in a 0700 folder).
        let binary = asOtherUser ? try CopyForOtherUsers.executable(program) : program
        var arguments = ["-c", start, binary] + programArguments
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

    /// Whether `condition` held for the running program (by its own name, not the
    /// shell or setpriv before it) within 30 s; a program that never hardens itself fails, never hangs.
    func poll(_ condition: (Int32) -> Bool) -> Bool {
        let pid = process.processIdentifier
        let end = Date(timeIntervalSinceNow: 30)
        while Date() < end, process.isRunning {
            let shown = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if shown == name, condition(pid) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Ends the run: the input arrives (a password the tool stores; the docker helper
    /// refuses it as no JSON), and the program exits.
    func finish() {
        try? input.fileHandleForWriting.write(contentsOf: Data("pw".utf8))
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + 30) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
    }
}
