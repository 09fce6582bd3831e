import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the tool with a pseudo-terminal as its standard input, output and error,
/// as a person at a shell would: the test reads what it prints and types answers.
final class TerminalSession {
    private let master: Int32
    private let slavePath: String
    private let process = Process()
    private let finished = DispatchSemaphore(value: 0)
    private(set) var output = Data()

    /// The longest any one wait may take; only a guard against a hung tool.
    static let bound: TimeInterval = 60

    /// Starts `executable` (the tool, unless another program is to run it: gdb for a core) on a new terminal.
    init(_ arguments: [String], environment: [String: String], executable: URL = CLI.binary) throws {
        // posix_openpt, unlockpt and ptsname are not in Swift's Glibc module, nor the _IOW macros:
        // these are the ioctls they make, with the numbers of asm-generic (x86_64 and aarch64).
        let TIOCSPTLCK: UInt = 0x4004_5431
        let TIOCGPTN: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0, ioctl(master, TIOCGPTN, &number) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        slavePath = "/dev/pts/\(number)"
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(slave) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        process.terminationHandler = { [finished] _ in finished.signal() }
        // The child inherits this thread's signal mask, and the test runner's threads block most
        // signals: the tool starts with none blocked, as a shell starts it, so a Ctrl-C reaches it.
        var none = sigset_t()
        var kept = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &kept)
        defer { pthread_sigmask(SIG_SETMASK, &kept, nil) }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(master)
    }

    /// Reads the terminal until `text` has been printed; `false` when the tool exited first.
    func waitFor(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(Self.bound)
        while output.range(of: Data(text.utf8)) == nil {
            guard Date() < deadline, readSome() else { return false }
        }
        return true
    }

    /// Waits until the tool has turned echo off, so what is typed next is neither shown nor flushed away.
    func waitForEchoOff() -> Bool {
        let deadline = Date().addingTimeInterval(Self.bound)
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { return false }
        defer { close(slave) }
        var settings = termios()
        while Date() < deadline {
            if tcgetattr(slave, &settings) == 0, settings.c_lflag & tcflag_t(ECHO) == 0 { return true }
            usleep(2_000)
        }
        return false
    }

    /// Sends the tool `signal`, as the terminal does for Ctrl-C (SIGINT) or a hang-up.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Whether the terminal echoes what is typed, as a person would find it after the tool.
    func echoIsOn() -> Bool {
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { return false }
        defer { close(slave) }
        var settings = termios()
        return tcgetattr(slave, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `bytes`, as they are.
    func type(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = write(master, $0.baseAddress, $0.count) }
    }

    /// The exit status, once the tool ends (it is killed after `bound`).
    func exitStatus() -> Int32 {
        while process.isRunning, readSome() {}
        if finished.wait(timeout: .now() + Self.bound) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            Issue.record("swift-keyring did not finish within \(Int(Self.bound)) s on a terminal")
        }
        return process.terminationStatus
    }

    /// Reads what is there within a short poll; `false` once the tool has closed the terminal.
    private func readSome() -> Bool {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) >= 0 else { return errno == EINTR }
        if poller.revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return false }
            output.append(contentsOf: buffer[0..<count])
            return true
        }
        if poller.revents & Int16(POLLHUP | POLLERR) != 0 { return false }
        return process.isRunning
    }
}
