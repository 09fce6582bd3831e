import Foundation

/// Questions asked on a terminal: only when standard input is one, so a script
/// or CI job never waits on a prompt nobody can answer.
enum Terminal {
    /// Whether standard input is a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for a secret with echo off; `nil` at end of input.
    static func readSecret(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if hasTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }

    /// Asks for a new secret twice, and fails when the two differ.
    static func readNewSecret(what: String) throws -> String {
        guard let first = readSecret(prompt: "\(what): "), let second = readSecret(prompt: "Repeat \(what.lowercased()): ") else {
            throw CommandFailure(message: "No \(what.lowercased()) was entered.", status: ExitStatus.invalidInput)
        }
        guard first == second else {
            throw CommandFailure(message: "The two entries differ; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return first
    }

    /// Asks a yes/no question; only `y` or `yes` count as yes.
    static func confirm(_ question: String) -> Bool {
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }
}
