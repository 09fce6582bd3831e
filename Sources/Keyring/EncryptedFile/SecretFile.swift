import Foundation

/// Reading a passphrase or key file: it must exist, be a regular file, and be closed to other users.
package enum SecretFile {
    /// The largest passphrase or key file read, so a wrong path (a log, a device) is refused quickly.
    static let maximumBytes = 64 * 1024

    /// The file's bytes.
    /// - Parameter field: the setting that named the file, for the error.
    /// - Throws: `.invalidRecord` naming `field` when the file is missing, unreadable or too large;
    ///   `.insecurePermissions` when other users can read or write it.
    package static func read(_ path: String, field: String) throws -> [UInt8] {
        let descriptor: Int32
        do {
            guard let opened = try POSIX.openIfPresent(path, O_RDONLY) else {
                throw KeyringError.invalidRecord(field: field, reason: "there is no file at \(path)")
            }
            descriptor = opened
        } catch KeyringError.backend(_, let code, _) {
            throw KeyringError.invalidRecord(field: field, reason: "cannot open \(path): \(String(cString: strerror(Int32(code))))")
        }
        defer { close(descriptor) }
        let info = try POSIX.fstat(descriptor, path: path)
        try FilePermissions.require(path, FilePermissions.secretSourceProblem(info))
        guard info.st_size <= maximumBytes else {
            throw KeyringError.invalidRecord(field: field, reason: "the file \(path) is larger than \(maximumBytes) bytes")
        }
        return try POSIX.readAll(descriptor, path: path, sizeHint: Int(info.st_size))
    }
}
