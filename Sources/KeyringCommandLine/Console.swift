import Glibc
internal import KeyringCrypto

/// Standard output and error, written straight to their descriptors, so there are
/// no buffering surprises between the two (and no Foundation `FileHandle`, which
/// is not in `FoundationEssentials`).
package enum Console {
    package static func output(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `line` to standard error after the program's name, escaped as
    /// `PrintableField` escapes: an error may quote a daemon or a cluster, whose
    /// words must not drive the terminal or forge a second line.
    package static func error(_ line: String) {
        write(programName + ": " + PrintableField.escaped(line) + "\n", to: STDERR_FILENO)
    }

    /// The name messages begin with: this program's own (`swift-keyring`, or
    /// `git-credential-swift-keyring`, which shares this code), from how it was run.
    package static let programName: String = {
        let path = CommandLine.arguments.first ?? "swift-keyring"
        return path.split(separator: "/").last.map(String.init) ?? "swift-keyring"
    }()

    /// Writes all of `text`, resuming after a short write or a signal; a closed
    /// pipe or a full disk ends the write, as `FileHandle.write` did.
    package static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes `secret` and a newline (unless `endingLine` is `false`: git's helper's answer ends
    /// its own lines) to standard output, then wipes `secret`: the password `get` prints never
    /// becomes a `String`, whose storage nothing can wipe.
    package static func outputSecret(_ secret: inout [UInt8], endingLine: Bool = true) {
        secret.withUnsafeBytes { write($0, to: STDOUT_FILENO) }
        // A newline of its own: appending it to `secret` could move the bytes and leave the old ones unwiped.
        if endingLine { write("\n", to: STDOUT_FILENO) }
        secret.wipe()
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
