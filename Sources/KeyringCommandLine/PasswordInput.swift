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
        let (password, _) = try readBytes(line: onTerminal, field: "password")
        guard password.count > 0 else {
            throw CommandFailure(
                message: "No password was given on standard input; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return password
    }

    /// Reads a secret into secure memory: one line typed with echo off (`line`), or all of
    /// standard input; a final newline is the end of the line, not part of the secret. Both
    /// this and ``Terminal/readSecretBytes(prompt:field:)`` read so.
    /// - Returns: the secret, and how many bytes came (0: the input ended before any did).
    /// - Throws: `CommandFailure` (65) naming `field` past `maximumBytes`.
    static func readBytes(line: Bool, field: String) throws -> (secret: SecureBytes, read: Int) {
        var read = 0
        // A secure pool with no room is a KeyringError the tool reports, as for any store.
        let secret = try KeyringError.translatingCrypto {
            try SecureBytes(capacity: maximumBytes + 1) { buffer in
                read =
                    line
                    ? EchoOff.during { readInto(buffer, stoppingAtNewline: true) }
                    : readInto(buffer, stoppingAtNewline: false)
                return read > 0 && buffer[read - 1] == UInt8(ascii: "\n") ? read - 1 : read
            }
        }
        // The typed newline was not echoed: end the prompt's line for what is printed next.
        if line, isatty(STDIN_FILENO) == 1 { Console.write("\n", to: STDERR_FILENO) }
        guard read <= maximumBytes else {
            throw CommandFailure(
                message: "The \(field) is longer than \(maximumBytes) bytes; nothing was changed.",
                status: ExitStatus.invalidInput)
        }
        return (secret, read)
    }

    /// Reads into `buffer` until it is full, the input ends, or (on a terminal) a newline
    /// arrives; returns how many bytes it holds, the newline included.
    private static func readInto(_ buffer: UnsafeMutableRawBufferPointer, stoppingAtNewline: Bool) -> Int {
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
