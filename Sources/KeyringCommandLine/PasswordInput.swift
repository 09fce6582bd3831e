package import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A password read from standard input straight into secure memory, for `unlock`:
/// never an argument (the process list shows those), never echoed, never in an
/// ordinary buffer that outlives the read.
package enum PasswordInput {
    /// The longest password taken: far beyond a typed one, and well within libgcrypt's secure pool.
    package static let maximumBytes = 4096

    /// The password: on a terminal, one line typed with echo off after `prompt` on standard
    /// error; from a pipe or file, everything up to the end, less one final newline.
    /// - Throws: `CommandFailure` (65) when nothing, or more than `maximumBytes`, was given.
    package static func read(prompt: String) throws -> SecureBytes {
        let onTerminal = Terminal.isInteractive
        if onTerminal { Console.write(prompt, to: STDERR_FILENO) }
        var tooLong = false
        // A secure pool with no room is a KeyringError the tool reports, as for any store.
        let password = try KeyringError.translatingCrypto {
            try SecureBytes(capacity: maximumBytes + 1) { buffer in
                let count =
                    onTerminal
                    ? EchoOff.during { readInto(buffer, stoppingAtNewline: true) }
                    : readInto(buffer, stoppingAtNewline: false)
                tooLong = count > maximumBytes
                // A final newline is the end of the line, not part of the password.
                return count > 0 && buffer[count - 1] == UInt8(ascii: "\n") ? count - 1 : count
            }
        }
        if onTerminal { Console.write("\n", to: STDERR_FILENO) }
        guard !tooLong else {
            throw CommandFailure(
                message: "The password is longer than \(maximumBytes) bytes; nothing was changed.",
                status: ExitStatus.invalidInput)
        }
        guard password.count > 0 else {
            throw CommandFailure(
                message: "No password was given on standard input; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return password
    }

    /// Reads into `buffer` until it is full, the input ends, or (on a terminal) a newline
    /// arrives; returns how many bytes it holds, the newline included. A terminal's prompts
    /// (``Terminal/readSecretBytes(prompt:field:)``) read their lines with it too.
    static func readInto(_ buffer: UnsafeMutableRawBufferPointer, stoppingAtNewline: Bool) -> Int {
        var count = 0
        while count < buffer.count {
            // A byte at a time on a terminal, so nothing typed after the line is taken.
            let wanted = stoppingAtNewline ? 1 : buffer.count - count
            let got = Glibc.read(STDIN_FILENO, buffer.baseAddress! + count, wanted)
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
            if stoppingAtNewline && buffer[count - 1] == UInt8(ascii: "\n") { break }
        }
        return count
    }
}
