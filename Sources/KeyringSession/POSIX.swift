import Foundation
import Glibc
import Keyring

/// The one place where C results become Swift errors: every raw call retries
/// `EINTR`, and `errno` becomes `KeyringError.backend` naming what was tried.
enum POSIX {
    /// Runs `call` again while it fails with `EINTR`; throws for any other failure.
    @discardableResult
    static func call<Result: BinaryInteger>(_ what: @autoclosure () -> String, _ call: () -> Result) throws -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            if errno != EINTR { throw error(what(), code: errno) }
        }
    }

    static func error(_ what: String, code: Int32) -> KeyringError {
        .backend(domain: "POSIX", code: Int(code), message: "\(what): \(String(cString: strerror(code)))")
    }

    /// Makes `path` and any missing parents with `mode`; existing folders are left as they are.
    static func makeDirectories(_ path: String, mode: mode_t) throws {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw error("cannot create the folder \(current)", code: errno)
            }
        }
    }

    /// The whole content of the file at `path`, or `nil` when there is no such file.
    static func readFile(_ path: String, describedAs name: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor == -1 {
            if errno == ENOENT { return nil }
            throw error("cannot open \(name) \(path)", code: errno)
        }
        defer { close(descriptor) }
        var content = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in
                try call("cannot read \(name) \(path)") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            if count == 0 { return content }
            content.append(contentsOf: buffer[0..<count])
        }
    }

    /// Replaces the file at `path` with `content` so that a reader sees the old
    /// content or the new, never a mix: temp file, fsync, rename, fsync of the folder.
    static func writeAtomically(_ content: Data, to path: String, mode: mode_t, describedAs name: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).\(UUID().uuidString).tmp"
        let descriptor = try call("cannot create a temporary file for \(name) in \(folder)") {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            try content.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    offset += try call("cannot write \(name) \(path)") {
                        write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    }
                }
            }
            try call("cannot flush \(name) \(path)") { fsync(descriptor) }
        }
        try call("cannot replace \(name) \(path)") { rename(temporary, path) }
        renamed = true
        let folderDescriptor = try call("cannot open the folder \(folder)") { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(folderDescriptor) }
        try call("cannot flush the folder \(folder)") { fsync(folderDescriptor) }
    }
}
