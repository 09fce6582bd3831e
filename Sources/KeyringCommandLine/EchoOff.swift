#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Echo turned off on standard input's terminal while a secret is typed, and turned back on
/// on every way out: a return, a throw, and the signals that end a process (Ctrl-C, Ctrl-\,
/// a hang-up, `kill`'s TERM). Without the handlers a Ctrl-C at the prompt leaves the terminal
/// silent under dash or a bare terminal (bash happens to restore it itself).
package enum EchoOff {
    /// The settings to put back, where a signal handler reaches them without a lock or an allocation.
    private nonisolated(unsafe) static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// The signals whose default action ends the process while the prompt waits.
    private static let endings = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    /// Runs `body` with echo off when standard input is a terminal, and just runs it otherwise.
    package static func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard tcgetattr(STDIN_FILENO, saved) == 0 else { return try body() }
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { number in
            // Only async-signal-safe calls: put the terminal back, then die of the signal as before.
            tcsetattr(STDIN_FILENO, TCSANOW, EchoOff.saved)
            signal(number, SIG_DFL)
            raise(number)
        }
        sigemptyset(&handler.sa_mask)
        var previous: [sigaction] = Array(repeating: sigaction(), count: endings.count)
        for (index, number) in endings.enumerated() {
            sigaction(number, &handler, &previous[index])
        }
        var silent = saved.pointee
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
            for (index, number) in endings.enumerated() {
                sigaction(number, &previous[index], nil)
            }
        }
        return try body()
    }
}
