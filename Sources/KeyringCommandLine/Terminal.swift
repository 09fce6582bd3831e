package import KeyringCrypto
import SwiftKeyring

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
        try readSecretBytes(prompt: prompt, field: field).map(text)
    }

    /// ``readSecret(prompt:field:)`` into secure memory, never a `String` (whose storage cannot
    /// be wiped) nor an array that grows (whose outgrown copies are freed unwiped).
    /// - Throws: `CommandFailure` (65) when the line is not UTF-8, or longer than
    ///   `PasswordInput.maximumBytes` (a terminal's line holds at most 4095).
    package static func readSecretBytes(prompt: String, field: String) throws -> SecureBytes? {
        Console.write(prompt, to: STDERR_FILENO)
        let (line, read) = try PasswordInput.readBytes(line: true, field: field)
        // Nothing before the end of input: no line at all (an empty line still has its newline).
        if read == 0 { return nil }
        try line.withBytes { try SecretText.check($0, field: field) }
        return line
    }

    /// Asks for a new secret twice, and fails when the two differ.
    package static func readNewSecret(what: String) throws -> String {
        text(try readNewSecretBytes(what: what))
    }

    /// ``readNewSecret(what:)`` into secure memory, as ``readSecretBytes(prompt:field:)`` reads.
    package static func readNewSecretBytes(what: String) throws -> SecureBytes {
        let field = what.lowercased()
        guard let first = try readSecretBytes(prompt: "\(what): ", field: field),
            let second = try readSecretBytes(prompt: "Repeat \(field): ", field: field)
        else {
            throw CommandFailure(message: "No \(what.lowercased()) was entered.", status: ExitStatus.invalidInput)
        }
        let same = first.withBytes { first in second.withBytes { first.elementsEqual($0) } }
        guard same else {
            throw CommandFailure(message: "The two entries differ; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return first
    }

    /// A secret read here as text, for the callers that need a `String` (a passphrase for the key derivation).
    private static func text(_ secret: SecureBytes) -> String {
        // Checked as UTF-8 when read.
        secret.withBytes { String(decoding: $0, as: UTF8.self) }
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
