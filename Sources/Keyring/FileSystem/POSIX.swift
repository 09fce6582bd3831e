import Foundation

/// The file store's system calls: `EINTR` is retried, and a failure becomes
/// `KeyringError.backend(domain: "errno", …)` naming the operation and the path.
enum POSIX {
    /// Runs `body` until it does not fail with `EINTR`.
    /// - Returns: the call's non-negative result.
    @discardableResult
    static func call(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws -> Int32 {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw failure(operation(), errno) }
        }
    }

    /// The error for a failed call.
    static func failure(_ operation: String, _ code: Int32) -> KeyringError {
        .backend(domain: "errno", code: Int(code), message: "\(operation): \(String(cString: strerror(code)))")
    }

    /// `lstat`, or `nil` when nothing is at `path`.
    static func lstatIfPresent(_ path: String) throws -> stat? {
        var info = stat()
        if Glibc.lstat(path, &info) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure("lstat \(path)", errno)
    }

    /// `stat` (following links), or `nil` when nothing is at `path`.
    static func statIfPresent(_ path: String) throws -> stat? {
        var info = stat()
        if stat(path, &info) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure("stat \(path)", errno)
    }

    static func fstat(_ descriptor: Int32, path: String) throws -> stat {
        var info = stat()
        try call("fstat \(path)") { Glibc.fstat(descriptor, &info) }
        return info
    }

    /// `open` with `O_CLOEXEC` and `O_NOFOLLOW`, or `nil` when nothing is at `path`.
    /// - Throws: `.insecurePermissions` when `path` is a symbolic link.
    static func openIfPresent(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Int32? {
        while true {
            let descriptor = Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode)
            if descriptor >= 0 { return descriptor }
            switch errno {
            case EINTR: continue
            case ENOENT: return nil
            case ELOOP: throw KeyringError.insecurePermissions(path: path, reason: "it is a symbolic link; give the real file's path")
            default: throw failure("open \(path)", errno)
            }
        }
    }

    /// `open` that fails when nothing is at `path`.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Int32 {
        guard let descriptor = try openIfPresent(path, flags, mode: mode) else {
            throw failure("open \(path)", ENOENT)
        }
        return descriptor
    }

    /// Reads from the current offset to the end of the file.
    static func readAll(_ descriptor: Int32, path: String, sizeHint: Int) throws -> [UInt8] {
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

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
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

    static func fsync(_ descriptor: Int32, path: String) throws {
        try call("fsync \(path)") { Glibc.fsync(descriptor) }
    }

    /// Flushes a folder's entries (a rename, a new file) to disk.
    static func fsyncFolder(_ path: String) throws {
        let descriptor = try call("open \(path)") { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try fsync(descriptor, path: path)
    }

    static func rename(_ from: String, _ to: String) throws {
        try call("rename \(from) to \(to)") { Glibc.rename(from, to) }
    }

    static func unlinkIfPresent(_ path: String) throws {
        if Glibc.unlink(path) == 0 || errno == ENOENT { return }
        throw failure("unlink \(path)", errno)
    }
}
