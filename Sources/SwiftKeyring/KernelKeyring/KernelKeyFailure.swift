#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A system call of the kernel's key retention service that failed, with its `errno`;
/// ``keyringError`` says what it means to a user, and what to do instead.
struct KernelKeyFailure: Error {
    /// `add_key` or `keyctl(KEYCTL_…)`.
    let operation: String
    let errorNumber: Int32
    /// The first kernel that offers `operation`, where an older one answers `EOPNOTSUPP`.
    var since: String?

    /// There is no such key any more: never added, expired, revoked or invalidated.
    var isAbsent: Bool {
        errorNumber == ENOKEY || errorNumber == EKEYEXPIRED || errorNumber == EKEYREVOKED
    }

    /// The calls are refused outright: a seccomp profile (Docker's default blocks
    /// `add_key` and `keyctl`) or a kernel built without keys.
    var isRefused: Bool {
        errorNumber == ENOSYS || errorNumber == EPERM
    }

    /// The failure as a user reads it, for `unlock`: nothing can be kept, so each process needs its secret.
    var keyringError: KeyringError {
        keyringError(
            fallback:
                "unlock cannot keep the file's key here, so give each command the passphrase "
                + "(SWIFT_KEYRING_PASSPHRASE_FILE) or use a key file (SWIFT_KEYRING_KEY_FILE) instead")
    }

    /// The failure as a user reads it; never a key, only the call and the kernel's word.
    /// - Parameter fallback: what to do where the kernel refuses the calls.
    func keyringError(fallback: String) -> KeyringError {
        let word = String(cString: strerror(errorNumber))
        if isRefused {
            // Inside a container this is the profile, not the kernel: say which calls it blocks.
            return .backend(
                domain: "kernel keyring", code: Int(errorNumber),
                message: "the kernel refused \(operation) (\(word)): the key calls are blocked here, as a container's "
                    + "seccomp profile does (Docker's default blocks add_key and keyctl), or the kernel has no keys; "
                    + "\(fallback)")
        }
        if errorNumber == EOPNOTSUPP {
            let needed = since.map { ", new in \($0): the kernel store needs \($0) or later" } ?? ""
            return .backend(
                domain: "kernel keyring", code: Int(errorNumber),
                message: "this kernel does not offer \(operation) (\(word))\(needed); \(fallback)")
        }
        if errorNumber == EDQUOT {
            return .backend(
                domain: "kernel keyring", code: Int(errorNumber),
                message: "\(operation) failed: this user's key quota is full (\(Self.quota)); "
                    + "remove records or keys, or raise the limits")
        }
        return .backend(domain: "kernel keyring", code: Int(errorNumber), message: "\(operation) failed: \(word)")
    }

    /// The user's quota as the kernel states it (`/proc/sys/kernel/keys/maxkeys`, `maxbytes`).
    private static var quota: String {
        func limit(_ name: String) -> String {
            let path = "/proc/sys/kernel/keys/\(name)"
            let text = (try? String(contentsOfFile: path, encoding: .utf8))?.filter { !$0.isWhitespace }
            return "\(path) \(text ?? "unknown")"
        }
        return "\(limit(getuid() == 0 ? "root_maxkeys" : "maxkeys")), \(limit(getuid() == 0 ? "root_maxbytes" : "maxbytes"))"
    }
}
