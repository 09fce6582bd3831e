#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The system calls of every file this package keeps (the keyring file, the
/// session state file, the files a secret is read from): `EINTR` is retried, and
/// a failure becomes ``KeyringError/backend(domain:code:message:)`` naming the
/// operation and the path. Shared with `KeyringSession` through `package` access,
/// so both modules follow one set of rules.
package enum POSIX {
    /// Runs `body` until it does not fail with `EINTR`.
    /// - Returns: the call's non-negative result.
    @discardableResult
    package static func call(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws -> Int32 {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw failure(operation(), errno) }
        }
    }

    /// The error for a failed call.
    package static func failure(_ operation: String, _ code: Int32) -> KeyringError {
        .backend(domain: "errno", code: Int(code), message: "\(operation): \(String(cString: strerror(code)))")
    }

    /// `lstat`, or `nil` when nothing is at `path`.
    package static func lstatIfPresent(_ path: String) throws -> stat? {
        var info = stat()
        if Glibc.lstat(path, &info) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure("lstat \(path)", errno)
    }

    /// `stat` (following links), or `nil` when nothing is at `path`.
    package static func statIfPresent(_ path: String) throws -> stat? {
        var info = stat()
        if stat(path, &info) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure("stat \(path)", errno)
    }

    package static func fstat(_ descriptor: Int32, path: String) throws -> stat {
        var info = stat()
        try call("fstat \(path)") { Glibc.fstat(descriptor, &info) }
        return info
    }

    /// `open` with `O_CLOEXEC` and `O_NOFOLLOW`, or `nil` when nothing is at `path`.
    /// - Throws: `.insecurePermissions` when `path` is a symbolic link.
    package static func openIfPresent(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Int32? {
        while true {
            let descriptor = Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode)
            if descriptor >= 0 { return descriptor }
            switch errno {
            case EINTR: continue
            case ENOENT: return nil
            case ELOOP:
                throw KeyringError.insecurePermissions(path: path, reason: "it is a symbolic link; give the real file's path")
            default: throw failure("open \(path)", errno)
            }
        }
    }

    /// `open` that fails when nothing is at `path`.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Int32 {
        guard let descriptor = try openIfPresent(path, flags, mode: mode) else {
            throw failure("open \(path)", ENOENT)
        }
        return descriptor
    }

    /// Opens the regular file at `path` for reading without waiting and without
    /// following a link, or returns `nil` when nothing is there.
    ///
    /// A FIFO or a device at the path would make a plain `open` (or the first
    /// `read`) wait forever for a writer, so the file is opened with `O_NONBLOCK`,
    /// its type is checked on the open descriptor (no window for a swap), and
    /// only then is `O_NONBLOCK` cleared for the reads.
    /// - Returns: the descriptor, which the caller closes, and the file's `stat`.
    /// - Throws: `.insecurePermissions` when it is a symbolic link or not a regular file.
    package static func openRegularFileIfPresent(_ path: String) throws -> (descriptor: Int32, info: stat)? {
        guard let descriptor = try openIfPresent(path, O_RDONLY | O_NONBLOCK) else { return nil }
        do {
            let info = try fstat(descriptor, path: path)
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw KeyringError.insecurePermissions(path: path, reason: "it is not a regular file")
            }
            let flags = try call("fcntl \(path)") { fcntl(descriptor, F_GETFL) }
            try call("fcntl \(path)") { fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
            return (descriptor, info)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Reads from the current offset to the end of the file.
    package static func readAll(_ descriptor: Int32, path: String, sizeHint: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096)))
            }
            let count = try bytes.withUnsafeMutableBytes { buffer in
                try call("read \(path)") {
                    Int32(Glibc.read(descriptor, buffer.baseAddress! + filled, min(buffer.count - filled, 1 << 30)))
                }
            }
            if count == 0 { break }
            filled += Int(count)
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Reads from the current offset into `buffer` until the file ends or `buffer` is full,
    /// so a secret can go straight into memory the caller chose (see `SecureBytes`).
    /// - Returns: how many bytes were read.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try call("read \(path)") {
                Int32(Glibc.read(descriptor, buffer.baseAddress! + filled, min(buffer.count - filled, 1 << 30)))
            }
            if count == 0 { break }
            filled += Int(count)
        }
        return filled
    }

    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
        var written = 0
        try bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = try call("write \(path)") {
                    Int32(Glibc.write(descriptor, buffer.baseAddress! + written, min(buffer.count - written, 1 << 30)))
                }
                written += Int(count)
            }
        }
    }

    package static func fsync(_ descriptor: Int32, path: String) throws {
        try call("fsync \(path)") { Glibc.fsync(descriptor) }
    }

    /// Flushes a folder's entries (a rename, a new file) to disk.
    package static func fsyncFolder(_ path: String) throws {
        let descriptor = try call("open \(path)") { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try fsync(descriptor, path: path)
    }

    package static func rename(_ from: String, _ to: String) throws {
        try call("rename \(from) to \(to)") { Glibc.rename(from, to) }
    }

    package static func unlinkIfPresent(_ path: String) throws {
        if Glibc.unlink(path) == 0 || errno == ENOENT { return }
        throw failure("unlink \(path)", errno)
    }
}
