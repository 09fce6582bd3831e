internal import CGcrypt

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A file's POSIX access ACL, as the kernel keeps it in `system.posix_acl_access`: who besides
/// the owner may read or write a key or passphrase file when its group mode bits are only a mask.
struct FileACL {
    /// One entry: whose (`tag`, `id`) and what it grants (`permissions`, `rwx` bits).
    private struct Entry {
        let tag: UInt16
        let permissions: UInt16
        let id: UInt32
    }

    // The tags of <linux/posix_acl.h>.
    private static let user: UInt16 = 0x02
    private static let groupOwner: UInt16 = 0x04
    private static let group: UInt16 = 0x08
    private static let mask: UInt16 = 0x10

    private let entries: [Entry]

    /// The ACL of the open file, or `nil` when it has none (or it cannot be read, which the mode
    /// bits then judge on their own).
    init?(descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 4 + 8 * 64)
        let count = bytes.withUnsafeMutableBytes { swift_keyring_file_acl(descriptor, $0.baseAddress, $0.count) }
        guard count > 4, (count - 4) % 8 == 0 else { return nil }
        func number(_ at: Int, _ width: Int) -> UInt32 {
            (0..<width).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        }
        entries = stride(from: 4, to: Int(count), by: 8).map {
            Entry(tag: UInt16(number($0, 2)), permissions: UInt16(number($0 + 2, 2)), id: number($0 + 4, 4))
        }
    }

    /// Why the ACL lets someone other than the owner and `me` read or write the file, or `nil`.
    func problem(me: uid_t) -> String? {
        let mask = entries.first { $0.tag == Self.mask }?.permissions ?? 0o7
        for entry in entries {
            guard let access = FilePermissions.accessWords(mode_t(entry.permissions & mask & 0o6)) else { continue }
            switch entry.tag {
            case Self.user where entry.id != me && entry.id != 0:
                return "its ACL lets user \(entry.id) \(access) it; setfacl -x u:\(entry.id) it"
            case Self.groupOwner:
                return "its ACL lets its group \(access) it; setfacl -m g::- it"
            case Self.group:
                return "its ACL lets group \(entry.id) \(access) it; setfacl -x g:\(entry.id) it"
            default:
                continue
            }
        }
        return nil
    }
}
