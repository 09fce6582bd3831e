import Foundation
import Glibc

/// A child process run to its end with how it ended (an exit status, or the signal that
/// killed it) and its peak resident memory, which a test of a memory bound asserts (the
/// kernel's count for the child alone, not a timing).
///
/// The child is started by a small Python parent that reports `RUSAGE_CHILDREN`: a child
/// the test process spawned itself would inherit the test process's own peak (the kernel
/// keeps the larger of the old and new image's peaks across `exec`, and `posix_spawn`
/// shares the test's memory until then).
struct MeasuredChild {
    /// The exit status; `nil` when a signal ended it.
    var status: Int32?
    /// The signal that ended it; `nil` when it exited.
    var signal: Int32?
    /// Its peak resident set, in KiB (`ru_maxrss`).
    var peakKiB: Int
    var standardOutput: String
    var standardError: String

    /// Runs `arguments` (the first a path) with `environment` and no input, killing it after `timeout`.
    static func run(_ arguments: [String], environment: [String: String], timeout: Duration = .seconds(60)) throws
        -> MeasuredChild
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let err = folder.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let measuring = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:])
            sys.stderr.write("\\nmeasured %d %d\\n" % (run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            """
        let argv = (["python3", "-c", measuring] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // A process group of its own, so that a timeout kills the measured child too.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        // The system's Python (Scripts/setup.sh installs it), not a version manager's shim.
        let started = posix_spawn(&pid, "/usr/bin/python3", &actions, &attributes, argv, envp)
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .ENOENT) }
        var status: Int32 = 0
        var usage = rusage()
        let end = ContinuousClock.now + timeout
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw POSIXError(.ECHILD) }
            if ContinuousClock.now >= end {
                kill(-pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                throw POSIXError(.ETIMEDOUT)
            }
            usleep(10_000)
        }
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        guard let line = errors.split(separator: "\n").last, line.hasPrefix("measured "),
            case let words = line.split(separator: " "), words.count == 3, let code = Int32(words[1]),
            let peak = Int(words[2])
        else { throw POSIXError(.ECHILD) }
        return MeasuredChild(
            status: code >= 0 ? code : nil, signal: code < 0 ? -code : nil, peakKiB: peak,
            standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            standardError: String(errors.dropLast(line.count + 1)))
    }
}
