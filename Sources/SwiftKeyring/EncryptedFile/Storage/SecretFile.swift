import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Reading a passphrase or key file: it must exist, be a regular file of this user
/// (or root) that only its owner may write and other users may not read, and its
/// bytes go straight into secure memory.
package enum SecretFile {
    /// The largest passphrase or key file read, so a wrong path (a log, a device) is refused quickly.
    static let maximumBytes = 64 * 1024

    /// The file's bytes, in secure memory; no copy is left in ordinary memory.
    /// - Parameter field: the setting that named the file, for the error.
    /// - Throws: `.invalidConfiguration` naming `field` when the file is missing, unreadable, too large
    ///   or changing while read; `.insecurePermissions` when it is not a regular file (a FIFO
    ///   is refused, not waited on), belongs to another user, is writable by its group, or
    ///   other users can read or write it.
    package static func read(_ path: String, field: String) throws -> SecureBytes {
        return try KeyringError.translatingCrypto {
            let opened: (descriptor: Int32, info: stat)
            do {
                guard let found = try POSIX.openRegularFileIfPresent(path) else {
                    throw KeyringError.invalidConfiguration(setting: field, reason: "there is no file at \(path)")
                }
                opened = found
            } catch let error as KeyringError where error.code == .backend {
                throw KeyringError.invalidConfiguration(
                    setting: field, reason: "cannot open \(path): \(String(cString: strerror(Int32(error.backendCode ?? 0))))")
            }
            defer { close(opened.descriptor) }
            try FilePermissions.require(path, FilePermissions.secretSourceProblem(opened.info))
            let size = Int(opened.info.st_size)
            guard size <= maximumBytes else {
                throw KeyringError.invalidConfiguration(
                    setting: field, reason: "the file \(path) is larger than \(maximumBytes) bytes")
            }
            // One byte more than the size, so a file that grew since `fstat` is noticed rather than cut.
            return try SecureBytes(capacity: size + 1) { buffer in
                let count = try POSIX.read(opened.descriptor, into: buffer, path: path)
                guard count <= size else {
                    throw KeyringError.invalidConfiguration(setting: field, reason: "the file \(path) changed while it was read")
                }
                return count
            }
        }
    }
}
