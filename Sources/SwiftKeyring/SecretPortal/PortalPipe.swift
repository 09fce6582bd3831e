internal import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The pipe the Secret portal writes the app's secret to: its write end goes to
/// the portal, its read end is read here, a known number of bytes, each wait
/// bounded by a deadline.
final class PortalPipe {
    private let readEnd: Int32
    private var writeEnd: Int32?

    /// A new pipe, both ends closed on exec; the read end never blocks, so `read` waits in `poll` alone.
    /// - Throws: `.backend` naming `pipe2` or `fcntl` when the system refuses.
    init() throws {
        var ends: [Int32] = [-1, -1]
        // A socket pair rather than a pipe: it is made close-on-exec at once (Glibc's module
        // hides pipe2), so no child another thread starts inherits it; the portal only writes
        // to its end, as to a pipe.
        try POSIX.call("socketpair for the Secret portal") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        shutdown(ends[0], Int32(SHUT_WR))
        shutdown(ends[1], Int32(SHUT_RD))
        readEnd = ends[0]
        writeEnd = ends[1]
        do {
            let flags = try POSIX.call("fcntl F_GETFL on the Secret portal's pipe") { fcntl(ends[0], F_GETFL) }
            try POSIX.call("fcntl F_SETFL on the Secret portal's pipe") { fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) }
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
    }

    deinit {
        close(readEnd)
        if let writeEnd { close(writeEnd) }
    }

    /// Hands over the write end: the caller closes it once the call carried a copy to the portal.
    func takeWriteEnd() -> Int32 {
        defer { writeEnd = nil }
        return writeEnd ?? -1
    }

    /// Reads exactly `count` bytes into secure memory, waiting at most until `deadline`.
    ///
    /// Never reads past `count`: another copy of the write end may stay open, so the pipe's end may never come.
    /// - Parameter what: the writer, as errors name it.
    /// - Throws: `.timedOut` when the bytes have not all come by the deadline;
    ///   `.serviceUnavailable(.noSecretPortal)` when the pipe ends first; `.backend` for a failed `poll` or `read`.
    func read(count: Int, deadline: Deadline, what: String) throws -> SecureBytes {
        try KeyringError.translatingCrypto {
            try SecureBytes(count: count) { buffer in
                var filled = 0
                while filled < count {
                    guard !deadline.hasPassed else {
                        throw deadline.timedOut("read the app's secret from \(what) (\(filled) of \(count) bytes came)")
                    }
                    var waiting = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&waiting, 1, deadline.remainingMilliseconds)
                    if ready < 0 && errno != EINTR {
                        throw POSIX.failure("poll the Secret portal's pipe", errno)
                    }
                    guard ready > 0 else { continue }
                    let got = Glibc.read(readEnd, buffer.baseAddress! + filled, count - filled)
                    if got > 0 {
                        filled += got
                    } else if got == 0 {
                        throw KeyringError.serviceUnavailable(
                            reason: .noSecretPortal(detail: "\(what) closed the pipe after \(filled) of \(count) bytes"))
                    } else if errno != EINTR && errno != EAGAIN {
                        throw POSIX.failure("read the Secret portal's pipe", errno)
                    }
                }
            }
        }
    }
}
