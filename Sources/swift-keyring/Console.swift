import Glibc

/// Standard output and error, written straight to their descriptors, so there are
/// no buffering surprises between the two (and no Foundation `FileHandle`, which
/// is not in `FoundationEssentials`).
enum Console {
    static func output(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    static func error(_ line: String) {
        write("swift-keyring: " + line + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text`, resuming after a short write or a signal; a closed
    /// pipe or a full disk ends the write, as `FileHandle.write` did.
    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
