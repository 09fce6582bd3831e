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
    ///
    /// Symbolic links on the way are followed only where ``TrustedPath`` finds every folder
    /// safe (a Kubernetes Secret volume), so nobody else can have swapped the file.
    /// - Parameters:
    ///   - field: the setting that named the file, for the error.
    ///   - what: the file as a message names it ("the key file"), so a person knows which to `chmod`.
    /// - Throws: `.invalidConfiguration` naming `field` when the file is missing, unreadable, too large
    ///   or changing while read; `.insecurePermissions` (placed at `what`) when a folder or link on the
    ///   way is unsafe, or the file is not a regular file (a FIFO is refused, not waited on), belongs
    ///   to another user, or any other user or group may read or write it.
    package static func read(_ path: String, field: String, what: String) throws -> SecureBytes {
        return try KeyringError.translatingCrypto {
            let found: (resolved: String, opened: (descriptor: Int32, info: stat))?
            do {
                found = try KeyringError.placing(in: .secretFile(what)) {
                    guard let real = try TrustedPath.resolve(path) else { return nil }
                    return try POSIX.openRegularFileIfPresent(real).map { (real, $0) }
                }
            } catch let error as KeyringError where error.code == .backend {
                throw KeyringError.invalidConfiguration(
                    setting: field, reason: "cannot open \(path): \(String(cString: strerror(Int32(error.backendCode ?? 0))))")
            }
            guard let (resolved, opened) = found else {
                throw KeyringError.invalidConfiguration(setting: field, reason: "there is no file at \(path)")
            }
            defer { close(opened.descriptor) }
            try KeyringError.placing(in: .secretFile(what)) {
                try FilePermissions.require(
                    resolved, FilePermissions.secretSourceProblem(opened.info, descriptor: opened.descriptor))
            }
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
