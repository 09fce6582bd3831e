#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Questions asked on a terminal: only when standard input is one, so a script
/// or CI job never waits on a prompt nobody can answer.
package enum Terminal {
    /// Whether standard input is a terminal.
    package static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for a secret with echo off; `nil` at end of input.
    /// - Throws: `CommandFailure` (65) when the line is not UTF-8, exactly as for a piped secret.
    package static func readSecret(prompt: String, field: String) throws -> String? {
        Console.write(prompt, to: STDERR_FILENO)
        let line = EchoOff.during { readLineBytes() }
        // The typed newline was not echoed: end the prompt's line for what is printed next.
        if isatty(STDIN_FILENO) == 1 { Console.write("\n", to: STDERR_FILENO) }
        return try line.map { try SecretText.decode($0, field: field) }
    }

    /// One line of standard input as bytes, without its `\n`; `nil` at end of input.
    ///
    /// Read a byte at a time from the descriptor rather than with `readLine`, which
    /// repairs invalid UTF-8 into U+FFFD and would change a password silently.
    private static func readLineBytes() -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
    }

    /// Asks for a new secret twice, and fails when the two differ.
    package static func readNewSecret(what: String) throws -> String {
        let field = what.lowercased()
        guard let first = try readSecret(prompt: "\(what): ", field: field),
            let second = try readSecret(prompt: "Repeat \(field): ", field: field)
        else {
            throw CommandFailure(message: "No \(what.lowercased()) was entered.", status: ExitStatus.invalidInput)
        }
        guard first == second else {
            throw CommandFailure(message: "The two entries differ; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return first
    }

    /// Asks a yes/no question; only `y` or `yes` count as yes.
    package static func confirm(_ question: String) -> Bool {
        Console.write("\(question) [y/N] ", to: STDERR_FILENO)
        let answer = readLine(strippingNewline: true).map {
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()).lowercased()
        }
        return answer == "y" || answer == "yes"
    }
}
